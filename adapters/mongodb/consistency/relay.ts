import { Effect } from "effect"
import type { Db, Filter } from "mongodb"
import type { AuditTarget } from "../../../core/index.ts"
import { declaredResources } from "../../resources/index.ts"
import { query, queryWrite } from "../driver.ts"
import type { AuditEntryDocument } from "./audit-document.ts"
import { copyEntries, type RelayBatches } from "./relay-batches.ts"
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

/** Where the declared resources' entries of `type` wait: their records, by key (adapters/resources). */
const declared = (type: AuditTarget["type"]): ReadonlyArray<Place> =>
  declaredResources
    .filter((resource) => resource.audit === type)
    .map((resource) => byId(resource.name, String))

/**
 * Where each kind of target's entries wait. A member's wait on its membership, or on its account
 * for a change of the account. Every kind of target is named, so that a new one nobody registers
 * fails to compile rather than leave its entries waiting: a login's and a session's are none, as
 * they are appended to the record at once (`AuditLog.record`): a login's goes with no change, and
 * a session's end is recorded once the session is gone.
 */
const stores: Record<AuditTarget["type"], ReadonlyArray<Place>> = {
  member: [
    {
      collection: "members",
      find: (entry) => ({ accountId: entry.target.id, organizationId: entry.organizationId })
    },
    byId("accounts", (id) => id),
    ...declared("member")
  ],
  role: [byId("roles", Number)],
  role_permission_detail: [
    {
      collection: "roles",
      find: (entry) => ({ "record.id": Number(entry.target.id), organizationId: entry.organizationId })
    },
    // Where records were kept before their roles carried them: what waits there is moved at start.
    byId("role_permissions", Number)
  ],
  subscription: declared("subscription"),
  organization: declared("organization"),
  invitation: declared("invitation"),
  scim_token: declared("scim_token"),
  api_key: declared("api_key"),
  webhook: declared("webhook"),
  domain: declared("domain"),
  sso_connection: declared("sso_connection"),
  login: [],
  session: []
}

interface Pending {
  readonly _id: string | number
  readonly outbox?: Array<AuditEntryDocument>
  readonly removed?: boolean
}

/**
 * Moves a removed document's entries into the record, then deletes it: at once, as it still holds
 * names and keys. Repeatable: a document already deleted is not there to delete.
 */
const drainRemoved = (db: Db, collection: string, document: Pending) =>
  Effect.andThen(
    copyEntries(db, document.outbox ?? []),
    queryWrite(() => db.collection<Pending>(collection).deleteOne({ _id: document._id, removed: true }))
  )

/**
 * Has `entry` moved into the record if its write left it pending on its document (a write whose
 * condition failed left nothing, and nothing is moved): where a hint says so, without looking. It
 * goes with the next batch, except from a removed document, moved and deleted at once.
 */
export const relayEntry = (db: Db, entry: AuditEntryDocument, batches: RelayBatches) =>
  Effect.gen(function* () {
    const hint = takeHint(db, entry)
    if (hint !== undefined) return yield* batches.later({ ...hint, entry })
    for (const place of stores[entry.target.type]) {
      const pending = yield* query(() =>
        db
          .collection<Pending>(place.collection)
          .findOne(
            { ...place.find(entry), "outbox._id": entry._id },
            { projection: { removed: 1, outbox: 1 } }
          )
      )
      if (pending === null) continue
      // Every entry on it, those still queued for a batch included: it goes, and they with it.
      if (pending.removed === true) yield* drainRemoved(db, place.collection, pending)
      else yield* batches.later({ collection: place.collection, _id: pending._id, entry })
      return
    }
  })

/**
 * Moves every entry left pending on a document into the record (by a process that stopped between
 * a change and its relay, or still queued in this one), and deletes what was left removed. Each is
 * found in its document, so none is lost; it fails if the store refused any.
 */
export const relayPending = (db: Db, batches: RelayBatches) =>
  Effect.andThen(
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
          for (const document of documents) {
            if (document.removed === true) yield* drainRemoved(db, collection, document)
            else
              for (const entry of document.outbox ?? [])
                yield* batches.later({ collection, _id: document._id, entry })
          }
        })
    ),
    batches.moveAll
  )
