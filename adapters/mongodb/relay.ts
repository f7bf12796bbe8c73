import { Effect } from "effect"
import type { Db, Filter } from "mongodb"
import type { AuditTarget } from "../../core/index.ts"
import type { AuditEntryDocument } from "./audit-document.ts"
import { attemptWrite, query, queryWrite } from "./driver.ts"
import type { OutboxClearing } from "./outbox-clearing.ts"
import { takeHint } from "./relay-hints.ts"

interface Place {
  readonly collection: string
  /** The document of the entry's target in that collection. */
  readonly find: (entry: AuditEntryDocument) => Filter<Pending>
}

const byId = (collection: string, key: (id: string) => string | number): Place => ({
  collection,
  find: (entry) => ({ _id: key(entry.target.id) })
})

/**
 * Where each kind of target's entries wait. A member's wait on its membership, or on its account
 * for a change of the account.
 */
const stores: Partial<Record<AuditTarget["type"], ReadonlyArray<Place>>> = {
  member: [
    {
      collection: "members",
      find: (entry) => ({ accountId: entry.target.id, organizationId: entry.organizationId })
    },
    byId("accounts", (id) => id)
  ],
  role: [byId("roles", Number)],
  role_permission_detail: [byId("role_permissions", Number)],
  subscription: [byId("subscriptions", (id) => id)],
  organization: [byId("organizations", (id) => id)],
  invitation: [byId("invitations", (id) => id)],
  scim_token: [byId("scim_tokens", (id) => id)]
}

interface Pending {
  readonly _id: string | number
  readonly outbox?: Array<AuditEntryDocument>
  readonly removed?: boolean
}

/** Copies entries into the record; one copied before is not copied again (its id is the key). */
export const appendEntries = (db: Db, entries: ReadonlyArray<AuditEntryDocument>) =>
  Effect.forEach(entries, (entry) =>
    attemptWrite(() => db.collection<AuditEntryDocument>("audit_events").insertOne(entry)).pipe(
      Effect.catchTag("DuplicateKey", () => Effect.void)
    )
  )

/**
 * Takes moved entries off their document or, for a removed one, deletes it. Repeatable: an entry
 * already taken off is not there to take.
 */
const clear = (db: Db, collection: string, document: Pending) =>
  Effect.gen(function* () {
    const pending = db.collection<Pending>(collection)
    if (document.removed === true) {
      yield* queryWrite(() => pending.deleteOne({ _id: document._id, removed: true }))
      return
    }
    for (const entry of document.outbox ?? []) {
      // The entry exactly as read: FerretDB matches pulled documents whole, not as queries.
      yield* queryWrite(() => pending.updateOne({ _id: document._id }, { $pull: { outbox: entry } }))
    }
  })

/** Moves a document's pending entries into the record, then clears them from it. */
const drainDocument = (db: Db, collection: string, document: Pending) =>
  Effect.andThen(appendEntries(db, document.outbox ?? []), clear(db, collection, document))

/**
 * Moves `entry` into the record at once if its write left it pending on its document (a write
 * whose condition failed left nothing, and nothing is moved): where a hint says so, without looking.
 * Taking it off the document is left to `clearing`, except for a removed document, deleted at
 * once: it still holds names and keys.
 */
export const relayEntry = (db: Db, entry: AuditEntryDocument, clearing: OutboxClearing) =>
  Effect.gen(function* () {
    const hint = takeHint(db, entry)
    if (hint !== undefined) {
      yield* appendEntries(db, [entry])
      yield* clearing.later({ ...hint, entry })
      return
    }
    for (const place of stores[entry.target.type] ?? []) {
      const pending = yield* query(() =>
        db
          .collection<Pending>(place.collection)
          .findOne({ ...place.find(entry), "outbox._id": entry._id }, { projection: { removed: 1 } })
      )
      if (pending === null) continue
      yield* appendEntries(db, [entry])
      if (pending.removed === true) yield* clear(db, place.collection, { ...pending, outbox: [entry] })
      else yield* clearing.later({ collection: place.collection, _id: pending._id, entry })
      return
    }
  })

/**
 * At start: moves every entry a process left pending when it stopped between a change and its
 * relay, and deletes what it left removed. Each is found in its document, so none is lost.
 */
export const relayPending = (db: Db) =>
  Effect.forEach(
    new Set(Object.values(stores).flatMap((places) => places.map((place) => place.collection))),
    (collection) =>
      Effect.gen(function* () {
        const documents = yield* query(() =>
          db
            .collection<Pending>(collection)
            .find(
              { $or: [{ "outbox.0": { $exists: true } }, { removed: true }] },
              { projection: { outbox: 1, removed: 1 } }
            )
            .toArray()
        )
        yield* Effect.forEach(documents, (document) => drainDocument(db, collection, document))
      })
  )
