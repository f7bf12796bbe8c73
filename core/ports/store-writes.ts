import { Context } from "effect"

/**
 * What the writes of the current unit of work (one request's use case) did to the store, as the
 * store adapters saw them: whether one took effect, and whether one may have taken effect without
 * the store saying so (the connection broke after it was sent). An adapter that runs a use case
 * provides a fresh ledger and reads it when the store fails, to tell "nothing changed" from
 * "the outcome is unknown".
 */
export interface StoreWriteLedger {
  applied: boolean
  uncertain: boolean
}

export const StoreWrites = Context.Reference<StoreWriteLedger>("roster/core/ports/StoreWrites", {
  defaultValue: () => ({ applied: false, uncertain: false })
})

/** Whether a store failure in a unit of work with this ledger may have left a change behind. */
export const mayHaveChanged = (ledger: StoreWriteLedger) => ledger.applied || ledger.uncertain
