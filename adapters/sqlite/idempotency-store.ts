import { DateTime, Effect, Layer } from "effect"
import { IdempotencyStore, StoredResponse } from "../../core/index.ts"
import { SqliteDatabase } from "./database.ts"
import { int, jsonColumn, millis, text } from "./values.ts"

const { encode, decode } = jsonColumn(StoredResponse)

/** Claims of idempotency keys; each operation is one transaction under the key's primary key. */
export const makeIdempotencyStore = Effect.gen(function* () {
  const { write } = yield* SqliteDatabase
  return IdempotencyStore.of({
    start: ({ scope, key }, { requestHash, requestKey, now, expiresAt, leaseUntil }) =>
      write((db) => {
        const at = millis(now)
        db.run("DELETE FROM idempotency_keys WHERE expires_at <= ?", at)
        const existing = db.get("SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?", scope, key)
        if (existing === undefined) {
          db.run(
            `INSERT INTO idempotency_keys (scope, key, request_hash, request_key, expires_at, lease_until)
             VALUES (?, ?, ?, ?, ?, ?)`,
            scope,
            key,
            requestHash,
            requestKey,
            millis(expiresAt),
            millis(leaseUntil)
          )
          return { _tag: "Run" } as const
        }
        if (text(existing.request_hash) !== requestHash) return { _tag: "Reused" } as const
        if (existing.response !== null && existing.response !== undefined) {
          return { _tag: "Replay", response: decode(existing.response) } as const
        }
        if (at < int(existing.lease_until)) return { _tag: "InProgress" } as const
        db.run(
          "UPDATE idempotency_keys SET lease_until = ? WHERE scope = ? AND key = ?",
          millis(leaseUntil),
          scope,
          key
        )
        return { _tag: "Resume", requestKey: text(existing.request_key) } as const
      }),
    finish: ({ scope, key }, response) =>
      write(
        (db) =>
          void db.run(
            "UPDATE idempotency_keys SET response = ? WHERE scope = ? AND key = ?",
            encode(response),
            scope,
            key
          )
      ),
    release: ({ scope, key }, leaseUntil) =>
      write(
        (db) =>
          void db.run(
            "DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND lease_until = ?",
            scope,
            key,
            millis(leaseUntil)
          )
      ),
    abandon: ({ scope, key }, leaseUntil) =>
      write(
        (db) =>
          void db.run(
            `UPDATE idempotency_keys SET lease_until = ?
             WHERE scope = ? AND key = ? AND lease_until = ? AND response IS NULL`,
            millis(DateTime.makeUnsafe(0)),
            scope,
            key,
            millis(leaseUntil)
          )
      )
  })
})

export const idempotencyStoreLayer = Layer.effect(IdempotencyStore, makeIdempotencyStore)
