import { DateTime, Effect, Layer, Schema } from "effect"
import type { Filter } from "mongodb"
import {
  DuplicateOrganizationSlug,
  Organization,
  OrganizationId,
  type OrganizationQuery,
  OrganizationStore
} from "../../core/index.ts"
import { auditedWrites, bookkeeping } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { duplicateIsDefect, query, queryWrite } from "./driver.ts"
import { escapeRegExp } from "./member-filter.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"

/** An organisation as stored: its id as `_id`, its slug under a unique index. */
export const OrganizationDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    name: Schema.String,
    slug: Schema.String,
    defaultRoleId: Schema.optionalKey(Schema.Int),
    ownerRoleId: Schema.optionalKey(Schema.Int),
    requireMfa: Schema.optionalKey(Schema.Boolean),
    ssoRequired: Schema.optionalKey(Schema.Boolean),
    createdAt: Schema.DateTimeUtcFromDate,
    /** Set when its deletion starts: from then on no lookup finds it. */
    deleting: Schema.optionalKey(Schema.Boolean),
    outbox: bookkeeping.outbox
  }),
  Organization,
  {
    decode: ({ _id, outbox: _outbox, deleting: _deleting, ...fields }) => ({ id: _id, ...fields }),
    encode: ({ id, ...fields }) => ({ _id: id, ...fields })
  }
)

export type OrganizationDocument = typeof OrganizationDocument.Encoded

const toOrganization = decodeDocument(OrganizationDocument)

const notDeleting = { deleting: { $exists: false } } as const

const pageFilter = (organizations: OrganizationQuery): Filter<OrganizationDocument> => {
  const conditions: Array<Filter<OrganizationDocument>> = [notDeleting]
  if (organizations.after !== undefined) {
    const createdAt = DateTime.toDateUtc(organizations.after.createdAt)
    conditions.push({
      $or: [{ createdAt: { $gt: createdAt } }, { createdAt, _id: { $gt: organizations.after.id } }]
    })
  }
  if (organizations.q !== undefined) {
    const prefix = escapeRegExp(organizations.q)
    conditions.push({
      $or: [
        { slug: { $regex: `^${prefix.toLowerCase()}` } },
        { name: { $regex: `^${prefix}`, $options: "i" } }
      ]
    })
  }
  return { $and: conditions }
}
export const toOrganizationDocument = encodeDocument(OrganizationDocument)

export const makeOrganizationStore = Effect.gen(function* () {
  const writes = auditedWrites<OrganizationDocument>(yield* MongoDatabase, "organizations")
  const organizations = writes.collection
  return OrganizationStore.of({
    findById: (id) =>
      query(() => organizations.findOne({ _id: id, ...notDeleting })).pipe(
        Effect.flatMap(optionally(toOrganization))
      ),
    findByRef: (ref) =>
      query(() => organizations.findOne({ $or: [{ _id: ref }, { slug: ref }], ...notDeleting })).pipe(
        Effect.flatMap(optionally(toOrganization))
      ),
    insert: (organization, entry) =>
      writes
        .insert(toOrganizationDocument(organization), entry)
        .pipe(
          Effect.catchTag("DuplicateKey", () =>
            Effect.fail(new DuplicateOrganizationSlug({ slug: organization.slug }))
          )
        ),
    update: (id, changes, entry) =>
      (Object.keys(changes).length === 0
        ? query(() => organizations.findOne({ _id: id, ...notDeleting }))
        : duplicateIsDefect(writes.update({ _id: id, ...notDeleting }, { $set: changes }, entry))
      ).pipe(Effect.flatMap(optionally(toOrganization))),
    recordOwnerRole: (id, ownerRoleId) =>
      queryWrite(() =>
        organizations.updateOne({ _id: id, ownerRoleId: { $exists: false } }, { $set: { ownerRoleId } })
      ).pipe(Effect.asVoid),
    startDeleting: (id, entry) =>
      duplicateIsDefect(
        writes.update({ _id: id, ...notDeleting }, { $set: { deleting: true } }, entry, "before")
      ).pipe(Effect.flatMap(optionally(toOrganization))),
    beingDeleted: query(() =>
      organizations.find({ deleting: true }, { projection: { _id: 1 } }).toArray()
    ).pipe(Effect.map((found) => found.map((document) => OrganizationId.make(document._id)))),
    remove: (id) => queryWrite(() => organizations.deleteOne({ _id: id })).pipe(Effect.asVoid),
    page: (organizationQuery, limit) =>
      query(() =>
        organizations
          .find(pageFilter(organizationQuery))
          .sort({ createdAt: 1, _id: 1 })
          .limit(limit)
          .toArray()
      ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toOrganization)))
  })
})

export const organizationStoreLayer = Layer.effect(OrganizationStore, makeOrganizationStore)
