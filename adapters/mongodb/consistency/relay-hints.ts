import { Effect } from "effect"
import type { Db } from "mongodb"
import type { AuditEntry } from "../../../core/index.ts"
import type { AuditEntryDocument } from "./audit-document.ts"

/**
 * An account a new account's write marked pending until its membership was written too: the mark
 * as it was set, taken away with the entry the membership's write left (see `relayBatches`).
 */
export interface Unmark {
  readonly accountId: string
  readonly pendingSince: Date
}

interface Hint {
  readonly collection: string
  readonly _id: string | number
  readonly unmark?: Unmark
}

/** Per database: entries its writes in this process are known to have left, by entry id. */
const leftByDatabase = new WeakMap<Db, Map<string, Hint>>()

/**
 * Notes that a write which took effect left `entry` on the document `_id` of `collection`, so that
 * its relay need not look for it there. A hint only: a relay without one looks.
 */
export const noteLeft = (
  db: Db,
  collection: string,
  _id: string | number,
  entry: AuditEntry | undefined,
  unmark?: Unmark
) =>
  Effect.sync(() => {
    if (entry === undefined) return
    const left = leftByDatabase.get(db) ?? new Map()
    // Relays take their hints away; one a failed request never took is forgotten with the rest.
    if (left.size >= 10_000) left.clear()
    left.set(entry.id, unmark === undefined ? { collection, _id } : { collection, _id, unmark })
    leftByDatabase.set(db, left)
  })

/** The hint for `entry`, taken away. */
export const takeHint = (db: Db, entry: AuditEntryDocument) => {
  const left = leftByDatabase.get(db)
  const hint = left?.get(entry._id)
  left?.delete(entry._id)
  return hint
}
