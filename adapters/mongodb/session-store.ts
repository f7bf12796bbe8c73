import { DateTime, Effect, Layer, Schema } from "effect"
import { MemberId, Session, SessionStore, TokenHash } from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { decodeDocument, optionally, query } from "./driver.ts"

export interface SessionDocument {
  /** The SHA-256 of the token: the token itself is never stored. */
  _id: string
  memberId: string
  memberEpoch: number
  createdAt: Date
  /** Under a TTL index where the server has them: expired sessions are deleted by the database. */
  expiresAt: Date
}

const decode = decodeDocument(
  Schema.Struct({
    _id: TokenHash,
    memberId: MemberId,
    memberEpoch: Schema.Int,
    createdAt: Schema.DateTimeUtcFromDate,
    expiresAt: Schema.DateTimeUtcFromDate
  })
)

const toSession = (document: unknown) =>
  Effect.map(decode(document), ({ _id, ...fields }) => new Session({ tokenHash: _id, ...fields }))

export const makeSessionStore = Effect.gen(function* () {
  const sessions = (yield* MongoDatabase).collection<SessionDocument>("sessions")
  return SessionStore.of({
    create: (session) =>
      query(() =>
        sessions.insertOne({
          _id: session.tokenHash,
          memberId: session.memberId,
          memberEpoch: session.memberEpoch,
          createdAt: DateTime.toDateUtc(session.createdAt),
          expiresAt: DateTime.toDateUtc(session.expiresAt)
        })
      ).pipe(Effect.asVoid),
    find: (tokenHash) =>
      query(() => sessions.findOne({ _id: tokenHash })).pipe(Effect.flatMap(optionally(toSession))),
    revoke: (tokenHash) =>
      query(() => sessions.deleteOne({ _id: tokenHash })).pipe(
        Effect.map((result) => result.deletedCount > 0)
      ),
    revokeAllOf: (memberId) => query(() => sessions.deleteMany({ memberId })).pipe(Effect.asVoid)
  })
})

export const sessionStoreLayer = Layer.effect(SessionStore, makeSessionStore)
