import { Context, Effect, Layer, Option } from "effect"
import { AuditEntry, type StorePorts, type StoreUnavailable, storePorts } from "../../../core/index.ts"

/**
 * Moves an entry a write left pending on its document into the record (see `relayEntry`): what
 * the MongoDB audit log does for the stores, off the core's sight.
 */
export class AuditRelay extends Context.Service<
  AuditRelay,
  (entry: AuditEntry) => Effect.Effect<void, StoreUnavailable>
>()("roster/mongodb/AuditRelay") {}

/** An answer saying the write did not happen (its condition failed): it left no entry to move. */
const wroteNothing = (answer: unknown) =>
  answer === false || (Option.isOption(answer) && Option.isNone(answer))

/**
 * `service` with every operation relaying the entries it was handed (as an entry, or made by a
 * function it was handed, once the store knew the id) once it has succeeded: the store writes an
 * entry with its change, pending on the changed document, and relays what it wrote.
 */
const relaying = <S extends object>(service: S, relay: AuditRelay["Service"]): S => {
  const wrapped: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(service)) {
    wrapped[name] =
      typeof member !== "function"
        ? member
        : (...args: Array<unknown>) => {
            const carried = new Map<string, AuditEntry>()
            const carry = (value: unknown) => {
              if (value instanceof AuditEntry) carried.set(value.id, value)
              return value
            }
            const handed = args.map((arg) =>
              typeof arg === "function" ? (...made: Array<unknown>) => carry(arg(...made)) : carry(arg)
            )
            const result: unknown = member(...handed)
            return Effect.isEffect(result)
              ? Effect.tap(result, (answer) =>
                  wroteNothing(answer)
                    ? Effect.void
                    : Effect.forEach(carried.values(), relay, { discard: true })
                )
              : result
          }
  }
  return wrapped as S
}

/** `stores`, each writing an audit entry relaying it once its write is done. */
export const relayingWhatTheyWrite = <E, R>(stores: Layer.Layer<StorePorts | AuditRelay, E, R>) =>
  Layer.effectContext(
    Effect.map(Effect.context<StorePorts | AuditRelay>(), (context) => {
      const relay = Context.get(context, AuditRelay)
      let result: Context.Context<StorePorts> = Context.omit(AuditRelay)(context)
      // Every store: an operation handed no entry relays nothing, whatever store it is.
      for (const port of storePorts as ReadonlyArray<Context.Key<StorePorts, object>>)
        result = Context.add(result, port, relaying(Context.get(context, port), relay))
      return result
    })
  ).pipe(Layer.provide(stores))
