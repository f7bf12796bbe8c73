import { Effect } from "effect"
import type { AnyBulkWriteOperation, Db } from "mongodb"
import { StoreUnavailable } from "../../../core/index.ts"
import { isUniqueViolation, query } from "../driver.ts"
import type { AuditEntryDocument } from "./audit-document.ts"
import type { Unmark } from "./relay-hints.ts"

/**
 * Entries a batch moves at most, so that a document written many times a second holds few; one
 * command for the record and one per collection. FerretDB 1.24 (the test server) stopped answering
 * an update of 100 statements, while 90 went through: a batch stays well under that.
 */
const batchSize = 50

/** An entry a write left pending on a document, to be moved into the record. */
export interface Waiting {
  readonly collection: string
  readonly _id: string | number
  /** The entry exactly as it waits: FerretDB matches pulled documents whole, not as queries. */
  readonly entry: AuditEntryDocument
  /** The account's mark its write leaves to be cleared with the entry, if it is still that one. */
  readonly unmark?: Unmark
}

interface Pending {
  readonly _id: string | number
  readonly outbox?: Array<AuditEntryDocument>
  readonly pendingSince?: Date
}

/** What the server answers an `insert` command: how many it inserted, and why not the others. */
interface InsertReply {
  readonly n?: number
  readonly writeErrors?: ReadonlyArray<{ readonly code?: number; readonly errmsg?: string }>
  readonly writeConcernError?: unknown
}

/**
 * Copies `entries` into the record in one command; repeatable: an entry copied before is kept once
 * (its id is the key). One unordered insert of them all, whose refusals must all be such
 * duplicates, else the batch counts as not copied. An upsert each would need no such check, but
 * FerretDB (the test server) takes ~8 ms for each against ~0.1 for an insert. The command is sent
 * as such rather than through `insertMany`, which wraps a broken connection in the same error class
 * as refused documents.
 */
export const copyEntries = (db: Db, entries: ReadonlyArray<AuditEntryDocument>) =>
  entries.length === 0
    ? Effect.void
    : query(
        () =>
          db.command({
            insert: "audit_events",
            documents: [...entries],
            ordered: false,
            writeConcern: { w: "majority" }
          }) as Promise<InsertReply>
      ).pipe(
        Effect.flatMap((reply) => {
          const refused = reply.writeErrors ?? []
          const copied =
            reply.writeConcernError === undefined &&
            (reply.n ?? 0) + refused.length === entries.length &&
            refused.every((failure) =>
              isUniqueViolation({ code: failure.code, message: failure.errmsg ?? "" })
            )
          return copied ? Effect.void : Effect.fail(new StoreUnavailable())
        })
      )

/**
 * Moves entries that writes left pending on their documents into the record, in batches: each
 * second or each fifty entries, one command copies them into the record and one per collection
 * takes them off their documents, however many requests left them, rather than two writes more per
 * request. An entry is taken off only once copied: a batch the store refused waits for the next
 * flush, and what a process that stops leaves is moved at the next start, as any entry left pending
 * is. `flush` before reading the record shows this process's own entries.
 */
export const relayBatches = (db: Db) => {
  const queued: Array<Waiting> = []
  const clear = (taken: ReadonlyArray<Waiting>) => {
    const byCollection = new Map<string, Array<AnyBulkWriteOperation<Pending>>>()
    const add = (collection: string, operation: AnyBulkWriteOperation<Pending>) =>
      byCollection.set(collection, [...(byCollection.get(collection) ?? []), operation])
    for (const { collection, _id, entry, unmark } of taken) {
      add(collection, { updateOne: { filter: { _id }, update: { $pull: { outbox: entry } } } })
      if (unmark !== undefined)
        add("accounts", {
          updateOne: {
            filter: { _id: unmark.accountId, pendingSince: unmark.pendingSince },
            update: { $unset: { pendingSince: "" } }
          }
        })
    }
    return Effect.forEach(
      byCollection,
      ([collection, operations]) =>
        // Whatever stops it (the store gone, the client closed first), the next start clears the rest.
        Effect.ignoreCause(
          query(() => db.collection<Pending>(collection).bulkWrite(operations, { ordered: false }))
        ),
      { discard: true }
    )
  }
  /** Every batch queued, moved; fails, the rest still queued, when the store refuses one. */
  const moveAll: Effect.Effect<void, StoreUnavailable> = Effect.suspend(() => {
    const taken = queued.splice(0, batchSize)
    if (taken.length === 0) return Effect.void
    return copyEntries(
      db,
      taken.map(({ entry }) => entry)
    ).pipe(
      Effect.onError(() => Effect.sync(() => queued.unshift(...taken))),
      Effect.andThen(clear(taken)),
      Effect.andThen(moveAll),
      // Once taken from the queue, a batch is moved or put back, whoever stops waiting for it.
      Effect.uninterruptible
    )
  })
  const flush = Effect.ignoreCause(moveAll)
  return {
    /** Queues `waiting`; the request that fills a batch moves it (a hot document holds few). */
    later: (waiting: Waiting) =>
      Effect.suspend(() => {
        queued.push(waiting)
        return queued.length >= batchSize ? flush : Effect.void
      }),
    /** Moves what is queued, in the background's way: a batch refused waits for the next. */
    flush,
    /** Moves what is queued, failing when the store refuses: for a read that must find it all. */
    moveAll,
    /** Flushes every `intervalMs` while the scope lasts, and once more when it closes. */
    run: (intervalMs: number) =>
      Effect.gen(function* () {
        yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(intervalMs), flush)))
        yield* Effect.addFinalizer(() => flush)
      })
  }
}

export type RelayBatches = ReturnType<typeof relayBatches>
