/**
 * An instance of a Schema class made of fields that are checked already, as its constructor makes
 * one (the class's prototype, the fields as its own properties) without parsing them again. For
 * what the core assembles from checked parts on a request's path: a parse there cost more than it
 * does alone, since every parse in the request shares the parser's code and slows with each shape
 * it meets (an audit entry's cost an audited PATCH 6–10 µs of its 57–67 in process).
 * `test/unit/assembled.test.ts` holds each use equal to the constructor's instance.
 */
export const assembled = <C extends abstract new (...args: never) => object>(
  Class: C,
  fields: ConstructorParameters<C>[0]
): InstanceType<C> => {
  const instance: InstanceType<C> = Object.create(Class.prototype)
  return Object.assign(instance, fields)
}
