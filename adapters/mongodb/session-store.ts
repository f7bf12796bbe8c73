import { Effect, Layer, Schema } from "effect"
import { inOrganization, Session, SessionStore } from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { query, queryWrite } from "./driver.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"

/**
 * A session as stored: the SHA-256 of its token as `_id` (the token itself is never stored), and
 * `expiresAt` under a TTL index where the server has them.
 */
const SessionDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    memberId: Schema.String,
    organizationId: Schema.String,
    memberEpoch: Schema.Int,
    createdAt: Schema.DateTimeUtcFromDate,
    expiresAt: Schema.DateTimeUtcFromDate
  }),
  Session,
  {
    decode: ({ _id, ...fields }) => ({ tokenHash: _id, ...fields }),
    encode: ({ tokenHash, ...fields }) => ({ _id: tokenHash, ...fields })
  }
)

export const toSession = decodeDocument(SessionDocument)
const toDocument = encodeDocument(SessionDocument)

export const makeSessionStore = Effect.gen(function* () {
  const sessions = (yield* MongoDatabase).collection<typeof SessionDocument.Encoded>("sessions")
  return SessionStore.of({
    create: (session) => queryWrite(() => sessions.insertOne(toDocument(session))).pipe(Effect.asVoid),
    find: (tokenHash) =>
      query(() => sessions.findOne({ _id: tokenHash })).pipe(Effect.flatMap(optionally(toSession))),
    revoke: (tokenHash) =>
      queryWrite(() => sessions.deleteOne({ _id: tokenHash })).pipe(
        Effect.map((result) => result.deletedCount > 0)
      ),
    revokeAllOf: (memberId, except) =>
      queryWrite(() =>
        sessions.deleteMany(except === undefined ? { memberId } : { memberId, _id: { $ne: except } })
      ).pipe(Effect.asVoid),
    revokeMembership: (memberId) =>
      inOrganization((organizationId) =>
        queryWrite(() => sessions.deleteMany({ memberId, organizationId }))
      ).pipe(Effect.asVoid),
    carryOver: (tokenHash, memberEpoch) =>
      queryWrite(() => sessions.updateOne({ _id: tokenHash }, { $set: { memberEpoch } })).pipe(Effect.asVoid)
  })
})

export const sessionStoreLayer = Layer.effect(SessionStore, makeSessionStore)
