import { Effect } from "effect"
import type { Db } from "mongodb"
import { EventSource } from "../../core/index.ts"
import { toAuditEntry } from "./consistency/index.ts"
import { query, queryWrite } from "./driver.ts"

/**
 * The record's announced entries, marked `unsent` as written: on MongoDB an entry is in the record
 * once relayed, so an entry still pending on its document is not an event yet. This process's own
 * entries are moved first (`flush`), so that its changes are announced without waiting for the batch.
 */
export const makeEventSource = (db: Db, flush: Effect.Effect<void>) => {
  const events = db.collection<{ _id: string; unsent?: true }>("audit_events")
  return EventSource.of({
    unsent: (limit) =>
      Effect.andThen(
        flush,
        query(() => events.find({ unsent: true }).sort({ unsent: 1, at: 1, _id: 1 }).limit(limit).toArray())
      ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toAuditEntry))),
    markSent: (ids) =>
      ids.length === 0
        ? Effect.void
        : queryWrite(() => events.updateMany({ _id: { $in: [...ids] } }, { $unset: { unsent: "" } })).pipe(
            Effect.asVoid
          )
  })
}
