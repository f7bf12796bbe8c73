// A file the hand-written stores of version 16 wrote, read through the declared resources of
// version 17: each old store's write copied here as the raw SQL it ran.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import type { SqliteConnection } from "../../adapters/sqlite/connection.ts"
import { openBunSqlite, sqliteStores } from "../../adapters/sqlite/index.ts"
import { latestSchemaVersion } from "../../adapters/sqlite/migrations.ts"
import {
  IdempotencyStore,
  InboxEntry,
  PaymentEventId,
  PaymentInbox,
  SubscriptionId,
  SubscriptionStore
} from "../../core/index.ts"
import { assertEquals, at, inboxEntryOf, nextVersion, subscriptionOf, valueOf } from "../support/contract.ts"
import { fileAtVersion, tablesOf } from "../support/sqlite-versions.ts"
import { scratchFile } from "../support/stores.ts"

const received = new InboxEntry({ ...inboxEntryOf("evt_old", 10), outcome: "applied", completedAt: at(11) })
const active = subscriptionOf("sub_old", 20, "active", {
  providerSubscriptionId: "sub_provider_old",
  recentEventIds: [PaymentEventId.make("evt_old")],
  lastEventAt: at(10),
  version: 2
})
const older = subscriptionOf("sub_older", 5, "canceled")

/** A claim made at `second` by the request with `requestHash`, as the idempotency store is asked. */
const claim = (requestHash: string, second: number) => ({
  requestHash,
  requestKey: `${requestHash}@${second}`,
  now: at(second),
  expiresAt: at(second + 100),
  leaseUntil: at(second + 10)
})

/**
 * What version 16's inbox, subscription and idempotency stores ran for `received`, `active`,
 * `older`, and three claims: one answered, one whose request stopped, one expired.
 */
const writtenByVersion16 = (db: SqliteConnection) => {
  db.run(
    "INSERT INTO payment_inbox (event_id, document) VALUES (?, ?)",
    "evt_old",
    '{"eventId":"evt_old","eventType":"invoice.paid","payload":"{\\"id\\":\\"evt_old\\"}",' +
      '"receivedAt":"1970-01-01T00:00:10.000Z","outcome":"applied","completedAt":"1970-01-01T00:00:11.000Z"}'
  )
  const subscription = `INSERT INTO subscriptions (id, organization_id, provider_subscription_id, status, version, created_at, document)
     VALUES (?, ?, ?, ?, ?, ?, ?)`
  db.run(
    subscription,
    "sub_old",
    "default",
    "sub_provider_old",
    "active",
    2,
    20_000,
    '{"id":"sub_old","organizationId":"default","planId":"team","planName":"Team",' +
      '"price":{"amountMinor":1999,"currency":"EUR"},"status":"active",' +
      '"history":[{"status":"pending","at":"1970-01-01T00:00:20.000Z"},{"status":"active","at":"1970-01-01T00:00:21.000Z"}],' +
      '"providerSubscriptionId":"sub_provider_old","lastEventAt":"1970-01-01T00:00:10.000Z",' +
      '"recentEventIds":["evt_old"],"version":2,"createdAt":"1970-01-01T00:00:20.000Z","updatedAt":"1970-01-01T00:00:20.000Z"}'
  )
  db.run(
    subscription,
    "sub_older",
    "default",
    null,
    "canceled",
    1,
    5_000,
    '{"id":"sub_older","organizationId":"default","planId":"team","planName":"Team",' +
      '"price":{"amountMinor":1999,"currency":"EUR"},"status":"canceled",' +
      '"history":[{"status":"pending","at":"1970-01-01T00:00:05.000Z"},{"status":"canceled","at":"1970-01-01T00:00:06.000Z"}],' +
      '"recentEventIds":[],"version":1,"createdAt":"1970-01-01T00:00:05.000Z","updatedAt":"1970-01-01T00:00:05.000Z"}'
  )
  const claimed = `INSERT INTO idempotency_keys (scope, key, request_hash, request_key, expires_at, lease_until)
     VALUES (?, ?, ?, ?, ?, ?)`
  db.run(claimed, "master", "answered", "hash-1", "hash-1@0", 100_000, 10_000)
  db.run(
    "UPDATE idempotency_keys SET response = ? WHERE scope = ? AND key = ?",
    '{"status":201,"headers":[{"name":"content-type","value":"application/json"}],"body":"{}"}',
    "master",
    "answered"
  )
  db.run(claimed, "master", "stopped", "hash-1", "hash-1@0", 100_000, 10_000)
  db.run(claimed, "master", "expired", "hash-1", "hash-1@0", 1_000, 1_000)
}

describe("the payment inbox, subscriptions and idempotency keys of version 16, on SQLite", () => {
  it.effect("are read, found and changed through their declarations' tables", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const path = yield* scratchFile
        const old = yield* fileAtVersion(path, 16)
        writtenByVersion16(old)
        old.close()
        yield* Effect.gen(function* () {
          const inbox = yield* PaymentInbox
          assertEquals(valueOf(yield* inbox.receive(inboxEntryOf("evt_old", 99)), "the old entry"), received)
          assert.isTrue(Option.isNone(yield* inbox.receive(inboxEntryOf("evt_new", 99))))

          const store = yield* SubscriptionStore
          assertEquals(valueOf(yield* store.findById(active.id)), active)
          assertEquals(valueOf(yield* store.findById(older.id)), older)
          assertEquals(valueOf(yield* store.findByProviderSubscriptionId("sub_provider_old")), active)
          assert.deepStrictEqual(
            (yield* store.listOpen).map((subscription) => subscription.id),
            [active.id]
          )
          assert.strictEqual(valueOf(yield* store.latest).id, active.id)
          assert.isFalse(
            yield* store.replace(nextVersion(nextVersion(active, {}), { status: "canceled" })),
            "not over the stored version"
          )
          const pastDue = nextVersion(active, { status: "past_due" })
          assert.isTrue(yield* store.replace(pastDue))
          assertEquals(valueOf(yield* store.findById(SubscriptionId.make("sub_old"))), pastDue)

          const keys = yield* IdempotencyStore
          const replay = yield* keys.start({ scope: "master", key: "answered" }, claim("hash-1", 50))
          assert.deepStrictEqual(
            replay._tag === "Replay" ? [replay.response.status, replay.response.body] : replay,
            [201, "{}"]
          )
          const stopped = { scope: "master", key: "stopped" }
          assert.deepStrictEqual(yield* keys.start(stopped, claim("hash-2", 50)), { _tag: "Reused" })
          assert.deepStrictEqual(yield* keys.start(stopped, claim("hash-1", 50)), {
            _tag: "Resume",
            requestKey: "hash-1@0"
          })
          assert.deepStrictEqual(yield* keys.start(stopped, claim("hash-1", 51)), { _tag: "InProgress" })
          assert.deepStrictEqual(
            yield* keys.start({ scope: "master", key: "expired" }, claim("hash-2", 50)),
            {
              _tag: "Run"
            }
          )
          assert.deepStrictEqual(
            yield* keys.start({ scope: "other", key: "answered" }, claim("hash-1", 50)),
            {
              _tag: "Run"
            }
          )
        }).pipe(Effect.provide(Layer.orDie(sqliteStores({ path, open: openBunSqlite }))))

        const after = yield* Effect.promise(() => openBunSqlite(path))
        assert.strictEqual(Number(after.get("PRAGMA user_version")?.user_version), latestSchemaVersion)
        const tables = tablesOf(after)
        assert.includeMembers(tables, ["payment_events", "subscriptions", "idempotency_keys"])
        assert.notInclude(tables, "payment_inbox")
        assert.notInclude(tables, "subscriptions_before_kit")
        assert.notInclude(tables, "idempotency_keys_before_kit")
        assert.strictEqual(after.get("SELECT count(*) AS n FROM subscriptions")?.n, 2)
        after.close()
      })
    )
  )
})
