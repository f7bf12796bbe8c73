import { DateTime, Effect } from "effect"
import type { Records } from "./records.ts"

/**
 * Removes the records whose `expiresAt` has passed, at most once a minute in each instance: no
 * reader honours an expired record, the sweep only bounds the store.
 */
export const expirySweep = <R>(records: Records<R, "expiresAt">) => {
  let nextSweep = Number.NEGATIVE_INFINITY
  return (now: DateTime.Utc) =>
    Effect.suspend(() => {
      if (DateTime.toEpochMillis(now) < nextSweep) return Effect.void
      nextSweep = DateTime.toEpochMillis(now) + 60_000
      return records.removeAll({ expiresAt: { lte: now } })
    })
}
