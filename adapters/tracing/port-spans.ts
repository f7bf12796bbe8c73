import { Context, Effect, Tracer } from "effect"

/** `effect` in a span named `name` when it runs for a recorded trace; as it is otherwise. */
const inSpan = <A, E, R>(effect: Effect.Effect<A, E, R>, name: string) =>
  Effect.withFiber((fiber) =>
    Context.getOrUndefined(fiber.context, Tracer.ParentSpan)?.sampled === true
      ? Effect.withSpan(effect, name)
      : effect
  )

/** A port's service whose every operation runs in a span named `Port.operation`. */
const traced = <S extends object>(port: string, service: S): S => {
  const wrapped: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(service)) {
    const span = `${port}.${name}`
    wrapped[name] =
      typeof member === "function"
        ? (...args: Array<unknown>) => {
            const result: unknown = member(...args)
            return Effect.isEffect(result) ? inSpan(result, span) : result
          }
        : Effect.isEffect(member)
          ? inSpan(member, span)
          : member
  }
  return wrapped as S
}

/**
 * `context` with the services of `ports` traced: each call of a store, the hasher or the payment
 * provider of a recorded request in a span of its own, named for the port and its operation
 * (`RoleStore.insert`), under the use case's. Applied only when an operator traces, so that
 * otherwise nothing stands between a use case and its ports.
 */
export const withPortSpans = <I>(
  context: Context.Context<I>,
  ports: ReadonlyArray<Context.Key<I, object>>
): Context.Context<I> => {
  let result = context
  for (const port of ports) {
    const service = Context.getOrUndefined(context, port)
    if (service !== undefined) {
      result = Context.add(result, port, traced(port.key.split("/").at(-1) ?? port.key, service))
    }
  }
  return result
}
