import { Effect, Layer } from "effect"
import { inOrganization, isOpen, Subscription, SubscriptionStore } from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { jsonColumn, millis, optionalRow } from "./values.ts"

/** A subscription as stored: whole, as JSON, beside the columns it is found and ordered by. */
const { encode, decode } = jsonColumn(Subscription)

const toSubscription = (row: Row) => decode(row.document)

const store = (db: SqliteConnection, subscription: Subscription) =>
  db.run(
    `INSERT INTO subscriptions (id, organization_id, provider_subscription_id, status, version, created_at, document)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET provider_subscription_id = excluded.provider_subscription_id,
       status = excluded.status, version = excluded.version, document = excluded.document`,
    subscription.id,
    subscription.organizationId,
    subscription.providerSubscriptionId ?? null,
    subscription.status,
    subscription.version,
    millis(subscription.createdAt),
    encode(subscription)
  )

const newestFirst = "ORDER BY created_at DESC, id DESC"

export const makeSubscriptionStore = Effect.gen(function* () {
  const { read, write } = yield* SqliteDatabase
  const one = (sql: string, ...params: ReadonlyArray<string>) =>
    read((db) => optionalRow(db.get(sql, ...params), toSubscription))
  return SubscriptionStore.of({
    insert: (subscription, entry) =>
      write((db) => {
        store(db, subscription)
        appendEntry(db, entry)
      }),
    findById: (id) => one("SELECT document FROM subscriptions WHERE id = ?", id),
    findByProviderSubscriptionId: (providerId) =>
      one(
        `SELECT document FROM subscriptions WHERE provider_subscription_id = ? ${newestFirst} LIMIT 1`,
        providerId
      ),
    listOpen: inOrganization((organizationId) =>
      read((db) =>
        db
          .all(`SELECT document FROM subscriptions WHERE organization_id = ? ${newestFirst}`, organizationId)
          .map(toSubscription)
          .filter(isOpen)
      )
    ),
    latest: inOrganization((organizationId) =>
      one(
        `SELECT document FROM subscriptions WHERE organization_id = ? ${newestFirst} LIMIT 1`,
        organizationId
      )
    ),
    replace: (next, entry) =>
      inOrganization((organizationId) =>
        write((db) => {
          const swapped = db.run(
            "UPDATE subscriptions SET version = version WHERE id = ? AND organization_id = ? AND version = ?",
            next.id,
            organizationId,
            next.version - 1
          )
          if (swapped.changes === 0) return false
          store(db, next)
          appendEntry(db, entry)
          return true
        })
      )
  })
})

export const subscriptionStoreLayer = Layer.effect(SubscriptionStore, makeSubscriptionStore)
