import { DateTime, Effect, Layer, Schema } from "effect"
import { AuthMethod, inOrganization, Session, SessionStore } from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { query, queryWrite } from "./driver.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"

/**
 * A session as stored: the SHA-256 of its token as `_id` (the token itself is never stored), and
 * `expiresAt` under a TTL index where the server has them. Sessions stored before they had a public
 * id take one made from their digest's first half (which tells nothing of the token), and were
 * last seen when they were made; sessions stored before their sign-in's proof was recorded know no
 * methods and were proved when they were made.
 */
const SessionDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    id: Schema.optionalKey(Schema.String),
    memberId: Schema.String,
    organizationId: Schema.String,
    memberEpoch: Schema.Int,
    createdAt: Schema.DateTimeUtcFromDate,
    lastSeenAt: Schema.optionalKey(Schema.DateTimeUtcFromDate),
    expiresAt: Schema.DateTimeUtcFromDate,
    userAgent: Schema.optionalKey(Schema.NullOr(Schema.String)),
    address: Schema.optionalKey(Schema.NullOr(Schema.String)),
    mfaPending: Schema.optionalKey(Schema.Boolean),
    amr: Schema.optionalKey(Schema.Array(AuthMethod)),
    authTime: Schema.optionalKey(Schema.DateTimeUtcFromDate)
  }),
  Session,
  {
    decode: ({ _id, id, lastSeenAt, userAgent, address, mfaPending, amr, authTime, ...fields }) => ({
      tokenHash: _id,
      id: id ?? `ses_${_id.slice(0, 32)}`,
      lastSeenAt: lastSeenAt ?? fields.createdAt,
      userAgent: userAgent ?? null,
      address: address ?? null,
      mfaPending: mfaPending ?? false,
      amr: amr ?? [],
      authTime: authTime ?? fields.createdAt,
      ...fields
    }),
    encode: ({ tokenHash, ...fields }) => ({ _id: tokenHash, ...fields })
  }
)

export const toSession = decodeDocument(SessionDocument)
const toDocument = encodeDocument(SessionDocument)

/** The id a session stored before ids takes: `ses_` and its digest's first 32 hexadecimal digits. */
const legacyId = /^ses_[0-9a-f]{32}$/u

/** The session without an id of its own whose digest starts as `id` says. */
const legacyRange = (id: string) => {
  const start = id.slice(4)
  return { id: { $exists: false }, _id: { $gte: start, $lte: `${start}${"f".repeat(32)}` } }
}

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
    listOf: (memberId) =>
      query(() => sessions.find({ memberId }).sort({ createdAt: 1, _id: 1 }).toArray()).pipe(
        Effect.flatMap((documents) => Effect.forEach(documents, toSession))
      ),
    revokeById: (memberId, id) =>
      queryWrite(() =>
        sessions.findOneAndDelete(legacyId.test(id) ? { memberId, ...legacyRange(id) } : { memberId, id })
      ).pipe(Effect.flatMap(optionally(toSession))),
    noteSeen: (tokenHash, minute) =>
      queryWrite(() =>
        sessions.updateOne(
          {
            _id: tokenHash,
            $or: [{ lastSeenAt: { $lt: DateTime.toDateUtc(minute) } }, { lastSeenAt: { $exists: false } }]
          },
          { $set: { lastSeenAt: DateTime.toDateUtc(minute) } }
        )
      ).pipe(Effect.asVoid),
    setMfaPending: (organizationId, pending, { only, except = [] }) =>
      queryWrite(() =>
        sessions.updateMany(
          {
            organizationId,
            memberId: only === undefined ? { $nin: [...except] } : { $eq: only, $nin: [...except] }
          },
          { $set: { mfaPending: pending } }
        )
      ).pipe(Effect.asVoid),
    clearMfaPending: (memberId) =>
      queryWrite(() => sessions.updateMany({ memberId }, { $set: { mfaPending: false } })).pipe(
        Effect.asVoid
      ),
    carryOver: (tokenHash, memberEpoch) =>
      queryWrite(() => sessions.updateOne({ _id: tokenHash }, { $set: { memberEpoch } })).pipe(Effect.asVoid)
  })
})

export const sessionStoreLayer = Layer.effect(SessionStore, makeSessionStore)
