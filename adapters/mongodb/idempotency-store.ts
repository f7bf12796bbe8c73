import { DateTime, Effect, Layer, Schema } from "effect"
import type { Filter } from "mongodb"
import {
  type IdempotencyClaim,
  type IdempotencyKey,
  IdempotencyStore,
  type IdempotentStart,
  StoredResponse,
  type StoreUnavailable
} from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { attempt, query } from "./driver.ts"
import { decodeDocument, encodeDocument } from "./stored-schema.ts"

/**
 * A claimed key as stored: `_id` names the caller's scope and the key; `expiresAt` is under a TTL
 * index where the server has them (elsewhere an expired claim is taken over by the next request).
 * A claim stored before leases were kept has neither lease nor `requestKey`: it is held until it
 * expires, as it was then, never resumed.
 */
const IdempotencyDocument = Schema.Struct({
  _id: Schema.String,
  requestHash: Schema.String,
  requestKey: Schema.optionalKey(Schema.String),
  expiresAt: Schema.DateTimeUtcFromDate,
  leaseUntil: Schema.optionalKey(Schema.DateTimeUtcFromDate),
  response: Schema.optionalKey(StoredResponse)
})
type IdempotencyDocument = typeof IdempotencyDocument.Encoded

const decode = decodeDocument(IdempotencyDocument)
const encode = encodeDocument(IdempotencyDocument)

const idOf = (key: IdempotencyKey) => JSON.stringify([key.scope, key.key])

/** The expired claim read, not taken over since (each claim expires at its own instant). */
const expired = (found: IdempotencyDocument) => ({ _id: found._id, expiresAt: found.expiresAt })

/** The unanswered claim read, its lease lapsed, not resumed nor answered since. */
const lapsed = (found: IdempotencyDocument) => ({
  ...expired(found),
  leaseUntil: found.leaseUntil ?? { $exists: false as const },
  response: { $exists: false as const }
})

/** The claim still held under the lease its holder took: a later holder's claim is left alone. */
const held = (key: IdempotencyKey, leaseUntil: DateTime.Utc) => ({
  _id: idOf(key),
  leaseUntil: DateTime.toDateUtc(leaseUntil)
})

export const makeIdempotencyStore = Effect.gen(function* () {
  const claims = (yield* MongoDatabase).collection<IdempotencyDocument>("idempotency_keys")

  const start = (
    key: IdempotencyKey,
    claimed: IdempotencyClaim
  ): Effect.Effect<IdempotentStart, StoreUnavailable> => {
    const { requestHash, requestKey, now, expiresAt, leaseUntil } = claimed
    const claim = encode({ _id: idOf(key), requestHash, requestKey, expiresAt, leaseUntil })
    /** Replaces the claim read, unless another request changed it first: then this one starts over. */
    const takeOver = (
      read: Filter<IdempotencyDocument>,
      replacement: IdempotencyDocument,
      started: IdempotentStart
    ) =>
      query(() => claims.findOneAndReplace(read, replacement)).pipe(
        Effect.flatMap((replaced) => (replaced === null ? start(key, claimed) : Effect.succeed(started)))
      )
    return attempt(() => claims.insertOne(claim)).pipe(
      Effect.as<IdempotentStart>({ _tag: "Run" }),
      Effect.catchTag("DuplicateKey", () =>
        Effect.gen(function* () {
          const found = yield* query(() => claims.findOne({ _id: claim._id }))
          // Deleted as expired meanwhile: claim it afresh.
          if (found === null) return yield* start(key, claimed)
          const stored = yield* decode(found)
          if (!DateTime.isLessThan(now, stored.expiresAt)) {
            return yield* takeOver(expired(found), claim, { _tag: "Run" })
          }
          if (stored.requestHash !== requestHash) return { _tag: "Reused" as const }
          if (stored.response !== undefined) return { _tag: "Replay" as const, response: stored.response }
          const lease = stored.leaseUntil ?? stored.expiresAt
          if (DateTime.isLessThan(now, lease) || stored.requestKey === undefined) {
            return { _tag: "InProgress" as const }
          }
          return yield* takeOver(
            lapsed(found),
            { ...found, leaseUntil: DateTime.toDateUtc(leaseUntil) },
            { _tag: "Resume", requestKey: stored.requestKey }
          )
        })
      )
    )
  }

  return IdempotencyStore.of({
    start,
    finish: (key, response) =>
      query(() =>
        claims.updateOne(
          { _id: idOf(key) },
          { $set: { response: { status: response.status, headers: response.headers, body: response.body } } }
        )
      ).pipe(Effect.asVoid),
    release: (key, leaseUntil) => query(() => claims.deleteOne(held(key, leaseUntil))).pipe(Effect.asVoid),
    abandon: (key, leaseUntil) =>
      query(() =>
        claims.updateOne(
          { ...held(key, leaseUntil), response: { $exists: false } },
          { $set: { leaseUntil: new Date(0) } }
        )
      ).pipe(Effect.asVoid)
  })
})

export const idempotencyStoreLayer = Layer.effect(IdempotencyStore, makeIdempotencyStore)
