import { Effect } from "effect"
import type { AnyBulkWriteOperation, Db } from "mongodb"
import type { AuditEntryDocument } from "./audit-document.ts"
import { query } from "./driver.ts"

/**
 * Entries a batch clears at most, so that a document written many times a second holds few; one
 * command each. FerretDB 1.24 (the test server) stopped answering an update of 100 statements,
 * while 90 went through: a batch stays well under that.
 */
const batchSize = 50

interface Moved {
  readonly collection: string
  readonly _id: string | number
  /** The entry exactly as it waits: FerretDB matches pulled documents whole, not as queries. */
  readonly entry: AuditEntryDocument
}

interface Pending {
  readonly _id: string | number
  readonly outbox?: Array<AuditEntryDocument>
}

/**
 * Takes entries already moved into the record off the documents they waited on, in batches: one
 * command per collection each second or each fifty entries, however many requests moved them,
 * rather than one write more per request. Until then an entry waits where it was (the relay's
 * moves are repeatable), and what a process that stops leaves is cleared at the next start, as
 * any entry left pending is.
 */
export const outboxClearing = (db: Db) => {
  const queued: Array<Moved> = []
  const flush: Effect.Effect<void> = Effect.suspend(() => {
    const taken = queued.splice(0, batchSize)
    const byCollection = new Map<string, Array<AnyBulkWriteOperation<Pending>>>()
    for (const { collection, _id, entry } of taken) {
      const operations = byCollection.get(collection) ?? []
      operations.push({ updateOne: { filter: { _id }, update: { $pull: { outbox: entry } } } })
      byCollection.set(collection, operations)
    }
    return Effect.forEach(
      byCollection,
      ([collection, operations]) =>
        // Whatever stops it (the store gone, the client closed first), the next start clears the rest.
        Effect.ignoreCause(
          query(() => db.collection<Pending>(collection).bulkWrite(operations, { ordered: false }))
        ),
      { discard: true }
    ).pipe(Effect.andThen(Effect.suspend(() => (queued.length === 0 ? Effect.void : flush))))
  })
  return {
    /** Queues `moved`; the request that fills a batch clears it (a hot document holds few). */
    later: (moved: Moved) =>
      Effect.suspend(() => {
        queued.push(moved)
        return queued.length >= batchSize ? flush : Effect.void
      }),
    flush,
    /** Flushes every `intervalMs` while the scope lasts, and once more when it closes. */
    run: (intervalMs: number) =>
      Effect.gen(function* () {
        yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(intervalMs), flush)))
        yield* Effect.addFinalizer(() => flush)
      })
  }
}

export type OutboxClearing = ReturnType<typeof outboxClearing>
