import { Effect } from "effect"
import type { Db, Document, Filter, OptionalUnlessRequiredId, UpdateFilter } from "mongodb"
import type { AuditEntry } from "../../../core/index.ts"
import { attemptWrite } from "../driver.ts"
import { notRemoved, Outbox, pushEntry, Removed, withEntry } from "./audit-document.ts"
import { noteLeft, type Unmark } from "./relay-hints.ts"

/** The fields a document with audited changes carries for the protocol (README): spread into its schema. */
export const bookkeeping = { outbox: Outbox, removed: Removed }

type Audited = Document & { readonly _id: string | number }

/**
 * The writes of one collection, each a change with its audit entry in one atomic document write,
 * each but a removal leaving the relay a hint of where its entry waits (a removed document's
 * entries are moved, and it deleted, at once: `relay.ts`). A unique index's refusal is
 * `DuplicateKey`, for the store to name (`duplicateIsDefect` where no index can refuse).
 */
export const auditedWrites = <D extends Audited>(db: Db, name: string) => {
  const collection = db.collection<D>(name)
  const left = (id: string | number, entry: AuditEntry | undefined, unmark?: Unmark) =>
    noteLeft(db, name, id, entry, unmark)
  const write = (
    guard: Filter<D>,
    change: UpdateFilter<D>,
    entry: AuditEntry | undefined,
    answer: "before" | "after"
  ) =>
    attemptWrite(() =>
      collection.findOneAndUpdate(
        { ...guard, ...notRemoved },
        { ...change, ...pushEntry(entry) } as UpdateFilter<D>,
        { returnDocument: answer }
      )
    )
  const update = (
    guard: Filter<D>,
    change: UpdateFilter<D>,
    entry: AuditEntry | undefined,
    answer: "before" | "after" = "after"
  ) =>
    write(guard, change, entry, answer).pipe(
      Effect.tap((written) => (written === null ? Effect.void : left(written._id, entry)))
    )
  return {
    collection,
    /** A new document, carrying `entry`; `unmark`, the account mark its relay takes away. */
    insert: (
      document: OptionalUnlessRequiredId<D> & Audited,
      entry: AuditEntry | undefined,
      unmark?: Unmark
    ) =>
      attemptWrite(() => collection.insertOne(withEntry(document, entry))).pipe(
        Effect.andThen(left(document._id, entry, unmark))
      ),
    /**
     * Changes the one document `guard` finds, never a removed one, with `entry`; answers it as it is
     * after the change (or before, as `answer` says), null when none matched.
     */
    update,
    /**
     * Removes the one document `guard` finds, with `entry`: marked removed, which no read sees, until
     * the relay moves its entries and deletes it. `released` are the fields to set as it is marked
     * (what a unique index holds, freed for another document at once). Answers it as it was, null
     * when none matched.
     */
    remove: (guard: Filter<D>, entry: AuditEntry | undefined, released: Record<string, unknown> = {}) =>
      write(guard, { $set: { ...released, removed: true } } as unknown as UpdateFilter<D>, entry, "before")
  }
}
