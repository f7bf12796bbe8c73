import { DateTime, Effect, Layer, Schema } from "effect"
import {
  type IdempotencyKey,
  IdempotencyStore,
  type IdempotentStart,
  StoredResponse,
  type StoreUnavailable
} from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { attempt, decodeDocument, encodeDocument, query } from "./driver.ts"

/**
 * A claimed key as stored: `_id` names the caller's scope and the key; `expiresAt` is under a TTL
 * index where the server has them (elsewhere an expired claim is taken over by the next request).
 */
const IdempotencyDocument = Schema.Struct({
  _id: Schema.String,
  requestHash: Schema.String,
  expiresAt: Schema.DateTimeUtcFromDate,
  response: Schema.optionalKey(StoredResponse)
})
type IdempotencyDocument = typeof IdempotencyDocument.Encoded

const decode = decodeDocument(IdempotencyDocument)
const encode = encodeDocument(IdempotencyDocument)

const idOf = (key: IdempotencyKey) => JSON.stringify([key.scope, key.key])

export const makeIdempotencyStore = Effect.gen(function* () {
  const claims = (yield* MongoDatabase).collection<IdempotencyDocument>("idempotency_keys")

  const start = (
    key: IdempotencyKey,
    requestHash: string,
    now: DateTime.Utc,
    expiresAt: DateTime.Utc
  ): Effect.Effect<IdempotentStart, StoreUnavailable> => {
    const claim = encode({ _id: idOf(key), requestHash, expiresAt })
    return attempt(() => claims.insertOne(claim)).pipe(
      Effect.as<IdempotentStart>({ _tag: "Run" }),
      Effect.catchTag("DuplicateKey", () =>
        Effect.gen(function* () {
          const found = yield* query(() => claims.findOne({ _id: claim._id }))
          // Deleted as expired meanwhile: claim it afresh.
          if (found === null) return yield* start(key, requestHash, now, expiresAt)
          const stored = yield* decode(found)
          if (!DateTime.isLessThan(now, stored.expiresAt)) {
            const replaced = yield* query(() =>
              claims.findOneAndReplace({ _id: claim._id, expiresAt: found.expiresAt }, claim)
            )
            // Another request took the expired claim over first: answer as its repeat.
            return replaced === null
              ? yield* start(key, requestHash, now, expiresAt)
              : { _tag: "Run" as const }
          }
          if (stored.requestHash !== requestHash) return { _tag: "Reused" as const }
          return stored.response === undefined
            ? { _tag: "InProgress" as const }
            : { _tag: "Replay" as const, response: stored.response }
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
    release: (key) => query(() => claims.deleteOne({ _id: idOf(key) })).pipe(Effect.asVoid)
  })
})

export const idempotencyStoreLayer = Layer.effect(IdempotencyStore, makeIdempotencyStore)
