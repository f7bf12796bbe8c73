import { DateTime, Effect, Layer, Schema } from "effect"
import { LoginThrottleStore, type StoreUnavailable, throttleCounterId } from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { attempt, query } from "./driver.ts"
import { decodeDocument } from "./stored-schema.ts"

/**
 * One key's attempts in one window, as stored: `_id` names both; `expiresAt` (when the window no
 * longer weighs on the sliding count) is under a TTL index where the server has them, so past
 * windows are deleted.
 */
const LoginAttemptsDocument = Schema.Struct({
  _id: Schema.String,
  count: Schema.Int,
  expiresAt: Schema.DateTimeUtcFromDate
})

const decode = decodeDocument(LoginAttemptsDocument)

export const makeLoginThrottleStore = Effect.gen(function* () {
  const attempts = (yield* MongoDatabase).collection<typeof LoginAttemptsDocument.Encoded>("login_attempts")

  const increment = (
    key: string,
    windowStart: DateTime.Utc,
    keepUntil: DateTime.Utc
  ): Effect.Effect<number, StoreUnavailable> =>
    attempt(() =>
      attempts.findOneAndUpdate(
        { _id: throttleCounterId(key, windowStart) },
        { $inc: { count: 1 }, $setOnInsert: { expiresAt: DateTime.toDateUtc(keepUntil) } },
        { upsert: true, returnDocument: "after" }
      )
    ).pipe(
      // Two first attempts raced to create the counter; the loser counts on the winner's.
      Effect.catchTag("DuplicateKey", () => Effect.succeed(null)),
      Effect.flatMap((counter) =>
        counter === null
          ? increment(key, windowStart, keepUntil)
          : Effect.map(decode(counter), ({ count }) => count)
      )
    )

  return LoginThrottleStore.of({
    increment,
    count: (key, windowStart) =>
      query(() => attempts.findOne({ _id: throttleCounterId(key, windowStart) })).pipe(
        Effect.flatMap((counter) =>
          counter === null ? Effect.succeed(0) : Effect.map(decode(counter), ({ count }) => count)
        )
      ),
    release: (key, windowStart) =>
      query(() =>
        attempts.updateOne(
          { _id: throttleCounterId(key, windowStart), count: { $gt: 0 } },
          { $inc: { count: -1 } }
        )
      ).pipe(Effect.asVoid),
    clear: (key, windowStart) =>
      query(() => attempts.deleteOne({ _id: throttleCounterId(key, windowStart) })).pipe(Effect.asVoid)
  })
})

export const loginThrottleStoreLayer = Layer.effect(LoginThrottleStore, makeLoginThrottleStore)
