import { DateTime, Effect, Layer } from "effect"
import { LoginThrottleStore, type StoreUnavailable, throttleCounterId } from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { attempt, query } from "./driver.ts"

export interface LoginAttemptsDocument {
  /** The throttled key and the start of its window. */
  _id: string
  count: number
  /** The window's end; a TTL index (where the server has them) deletes past windows. */
  expiresAt: Date
}

export const makeLoginThrottleStore = Effect.gen(function* () {
  const attempts = (yield* MongoDatabase).collection<LoginAttemptsDocument>("login_attempts")

  const increment = (
    key: string,
    windowStart: DateTime.Utc,
    windowEnd: DateTime.Utc
  ): Effect.Effect<number, StoreUnavailable> =>
    attempt(() =>
      attempts.findOneAndUpdate(
        { _id: throttleCounterId(key, windowStart) },
        { $inc: { count: 1 }, $setOnInsert: { expiresAt: DateTime.toDateUtc(windowEnd) } },
        { upsert: true, returnDocument: "after" }
      )
    ).pipe(
      // Two first attempts raced to create the counter; the loser counts on the winner's.
      Effect.catchTag("DuplicateKey", () => Effect.succeed(null)),
      Effect.flatMap((counter) =>
        counter === null ? increment(key, windowStart, windowEnd) : Effect.succeed(counter.count)
      )
    )

  return LoginThrottleStore.of({
    increment,
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
