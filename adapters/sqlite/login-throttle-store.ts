import { Effect, Layer } from "effect"
import { LoginThrottleStore } from "../../core/index.ts"
import { SqliteDatabase } from "./database.ts"
import { int, millis } from "./values.ts"

/** Attempt counters, one row per key and window; windows past their keeping are swept as new ones open. */
export const makeLoginThrottleStore = Effect.gen(function* () {
  const { read, write } = yield* SqliteDatabase
  return LoginThrottleStore.of({
    increment: (key, windowStart, keepUntil) =>
      write((db) => {
        const start = millis(windowStart)
        db.run("DELETE FROM login_attempts WHERE keep_until <= ?", start)
        return int(
          db.get(
            `INSERT INTO login_attempts (key, window_start, count, keep_until) VALUES (?, ?, 1, ?)
             ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 RETURNING count`,
            key,
            start,
            millis(keepUntil)
          )?.count
        )
      }),
    count: (key, windowStart) =>
      read((db) =>
        int(
          db.get(
            "SELECT count FROM login_attempts WHERE key = ? AND window_start = ?",
            key,
            millis(windowStart)
          )?.count ?? 0
        )
      ),
    release: (key, windowStart) =>
      write(
        (db) =>
          void db.run(
            "UPDATE login_attempts SET count = count - 1 WHERE key = ? AND window_start = ? AND count > 0",
            key,
            millis(windowStart)
          )
      ),
    clear: (key, windowStart) =>
      write(
        (db) =>
          void db.run(
            "DELETE FROM login_attempts WHERE key = ? AND window_start = ?",
            key,
            millis(windowStart)
          )
      )
  })
})

export const loginThrottleStoreLayer = Layer.effect(LoginThrottleStore, makeLoginThrottleStore)
