import { Effect, Layer, Option, Schema } from "effect"
import { inOrganization, ScimTokenRecord, ScimTokenStore, toScimToken } from "../../core/index.ts"
import { auditedWrites, bookkeeping, notRemoved } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { duplicateIsDefect, query, queryWrite } from "./driver.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"

/** A SCIM token as stored: by its hash; a revoked one is only marked until its entry is relayed. */
const ScimTokenDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    organizationId: Schema.String,
    name: Schema.String,
    /** Absent on tokens made before tokens had permissions of their own: those act with none. */
    permissionIds: Schema.optionalKey(Schema.Array(Schema.Int)),
    tokenHash: Schema.String,
    createdAt: Schema.DateTimeUtcFromDate,
    ...bookkeeping
  }),
  ScimTokenRecord,
  {
    decode: ({ _id, outbox: _outbox, removed: _removed, permissionIds, ...fields }) => ({
      id: _id,
      permissionIds: permissionIds ?? [],
      ...fields
    }),
    encode: ({ id, ...fields }) => ({ _id: id, ...fields })
  }
)
type ScimTokenDocument = typeof ScimTokenDocument.Encoded

const toRecord = decodeDocument(ScimTokenDocument)
const toDocument = encodeDocument(ScimTokenDocument)

export const makeScimTokenStore = Effect.gen(function* () {
  const writes = auditedWrites<ScimTokenDocument>(yield* MongoDatabase, "scim_tokens")
  const tokens = writes.collection
  return ScimTokenStore.of({
    insert: (token, entry) => duplicateIsDefect(writes.insert(toDocument(token), entry)),
    list: inOrganization((organizationId) =>
      query(() =>
        tokens
          .find({ organizationId, ...notRemoved })
          .sort({ organizationId: 1, createdAt: 1, _id: 1 })
          .toArray()
      )
    ).pipe(
      Effect.flatMap((documents) => Effect.forEach(documents, (d) => Effect.map(toRecord(d), toScimToken)))
    ),
    findByTokenHash: (tokenHash) =>
      query(() => tokens.findOne({ tokenHash, ...notRemoved })).pipe(Effect.flatMap(optionally(toRecord))),
    revoke: (id, entry) =>
      inOrganization((organizationId) =>
        duplicateIsDefect(writes.remove({ _id: id, organizationId }, entry))
      ).pipe(Effect.flatMap(optionally(toRecord)), Effect.map(Option.map(toScimToken))),
    removeAll: inOrganization((organizationId) =>
      queryWrite(() => tokens.deleteMany({ organizationId }))
    ).pipe(Effect.asVoid)
  })
})

export const scimTokenStoreLayer = Layer.effect(ScimTokenStore, makeScimTokenStore)
