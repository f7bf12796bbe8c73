import { DateTime, Effect } from "effect"
import { StoreWrites } from "../../ports/store-writes.ts"

/**
 * Runs `work` in a fiber of its own, off the request's path: the request neither waits for it nor
 * answers for it. Its writes keep a ledger of their own (they are no part of what the request
 * answers), and its failure is logged, never raised.
 */
export const offThePath = <A, E, R>(work: Effect.Effect<A, E, R>) =>
  Effect.forkDetach(
    Effect.ignore(
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: the ledger is the work's own, and nobody reads it after
      Effect.provideService(work, StoreWrites, { applied: false, uncertain: false }),
      { log: "Warn" }
    )
  )

/**
 * Notes a use to the minute, off the request's path, at most once a minute: `last` starts the
 * minute noted last (`null`: none yet), and a later minute has begun once a minute has passed
 * since it. `note` is handed the start of the current minute.
 */
export const noteMinuteOfUse = <E, R>(
  last: DateTime.Utc | null,
  now: DateTime.Utc,
  note: (minute: DateTime.Utc) => Effect.Effect<unknown, E, R>
): Effect.Effect<void, never, R> =>
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: the minute of use is written to the minute: within one, writing it again writes the same
  last === null || now.epochMilliseconds - last.epochMilliseconds >= 60_000
    ? Effect.asVoid(offThePath(note(DateTime.startOf(now, "minute"))))
    : Effect.void
