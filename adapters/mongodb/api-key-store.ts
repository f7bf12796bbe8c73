import { DateTime, Effect, Layer, Schema } from "effect"
import type { Filter } from "mongodb"
import {
  type ApiKeyPosition,
  ApiKeyRecord,
  ApiKeyStore,
  AuditActor,
  type AuditEntry,
  inOrganization,
  toApiKey
} from "../../core/index.ts"
import { auditedWrites, bookkeeping, notRemoved } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { duplicateIsDefect, query, queryWrite } from "./driver.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"

/** An API key as stored: found by its lookup part; a revoked one is only marked until its entry is relayed. */
const ApiKeyDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    organizationId: Schema.String,
    name: Schema.String,
    lookup: Schema.String,
    start: Schema.String,
    permissions: Schema.Array(Schema.Int),
    createdBy: AuditActor,
    createdAt: Schema.DateTimeUtcFromDate,
    expiresAt: Schema.NullOr(Schema.DateTimeUtcFromDate),
    lastUsedAt: Schema.NullOr(Schema.DateTimeUtcFromDate),
    secretHash: Schema.String,
    previous: Schema.NullOr(Schema.Struct({ secretHash: Schema.String, until: Schema.DateTimeUtcFromDate })),
    ...bookkeeping
  }),
  ApiKeyRecord,
  {
    decode: ({ _id, outbox: _outbox, removed: _removed, ...fields }) => ({ id: _id, ...fields }),
    encode: ({ id, ...fields }) => ({ _id: id, ...fields })
  }
)
type ApiKeyDocument = typeof ApiKeyDocument.Encoded

const toRecord = decodeDocument(ApiKeyDocument)
const toDocument = encodeDocument(ApiKeyDocument)
const toKey = (document: unknown) => Effect.map(toRecord(document), toApiKey)

const afterPosition = (after: ApiKeyPosition | undefined): Filter<ApiKeyDocument> => {
  if (after === undefined) return {}
  const createdAt = DateTime.toDateUtc(after.createdAt)
  return { $or: [{ createdAt: { $gt: createdAt } }, { createdAt, _id: { $gt: after.id } }] }
}

export const makeApiKeyStore = Effect.gen(function* () {
  const writes = auditedWrites<ApiKeyDocument>(yield* MongoDatabase, "api_keys")
  const keys = writes.collection
  /** Sets `fields` on the organisation's key with its entry; answers the key as it is then. */
  const change = (id: string, fields: Partial<ApiKeyDocument>, entry: AuditEntry) =>
    inOrganization((organizationId) =>
      duplicateIsDefect(writes.update({ _id: id, organizationId }, { $set: fields }, entry))
    ).pipe(Effect.flatMap(optionally(toKey)))
  return ApiKeyStore.of({
    insert: (key, entry) => duplicateIsDefect(writes.insert(toDocument(key), entry)),
    page: (after, limit) =>
      inOrganization((organizationId) =>
        query(() =>
          keys
            .find({ organizationId, ...notRemoved, ...afterPosition(after) })
            .sort({ organizationId: 1, createdAt: 1, _id: 1 })
            .limit(limit)
            .toArray()
        )
      ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toKey))),
    find: (id) =>
      inOrganization((organizationId) =>
        query(() => keys.findOne({ _id: id, organizationId, ...notRemoved }))
      ).pipe(Effect.flatMap(optionally(toRecord))),
    findByLookup: (lookup) =>
      query(() => keys.findOne({ lookup, ...notRemoved })).pipe(Effect.flatMap(optionally(toRecord))),
    update: (id, changes, entry) => change(id, changes, entry),
    rotate: (id, rotation, entry) =>
      change(
        id,
        {
          secretHash: rotation.secretHash,
          previous:
            rotation.previous === null
              ? null
              : {
                  secretHash: rotation.previous.secretHash,
                  until: DateTime.toDateUtc(rotation.previous.until)
                }
        },
        entry
      ),
    revoke: (id, entry) =>
      inOrganization((organizationId) =>
        duplicateIsDefect(writes.remove({ _id: id, organizationId }, entry))
      ).pipe(Effect.flatMap(optionally(toKey))),
    removeAll: inOrganization((organizationId) => queryWrite(() => keys.deleteMany({ organizationId }))).pipe(
      Effect.asVoid
    ),
    noteUse: (id, at) => {
      const minute = DateTime.toDateUtc(at)
      return queryWrite(() =>
        keys.updateOne(
          { _id: id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: minute } }] },
          { $set: { lastUsedAt: minute } }
        )
      ).pipe(Effect.asVoid)
    }
  })
})

export const apiKeyStoreLayer = Layer.effect(ApiKeyStore, makeApiKeyStore)
