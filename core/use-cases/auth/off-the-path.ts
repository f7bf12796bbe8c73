import { Effect } from "effect"
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
