import { Context, Effect } from "effect"

/** A port's service whose every operation runs in a span named `Port.operation`. */
const traced = <S extends object>(port: string, service: S): S => {
  const wrapped: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(service)) {
    const span = `${port}.${name}`
    wrapped[name] =
      typeof member === "function"
        ? (...args: Array<unknown>) => {
            const result: unknown = member(...args)
            return Effect.isEffect(result) ? Effect.withSpan(result, span) : result
          }
        : Effect.isEffect(member)
          ? Effect.withSpan(member, span)
          : member
  }
  return wrapped as S
}

/**
 * `context` with the services of `ports` traced: each call of a store, the hasher or the payment
 * provider in a span of its own, named for the port and its operation (`RoleStore.insert`), under
 * the use case's. Applied only when an operator traces, so that otherwise nothing stands between a
 * use case and its ports.
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
