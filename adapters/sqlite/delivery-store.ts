import { randomUUID } from "node:crypto"
import { type DateTime, Effect, Layer, Option } from "effect"
import {
  type ClaimedDelivery,
  DeliveryRecord,
  DeliveryStore,
  inOrganization,
  retried,
  settled,
  toDelivery
} from "../../core/index.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { jsonColumn, millis, optionalRow, whereClause } from "./values.ts"
import { toWebhookRecord } from "./webhook-store.ts"

/** When a delivery is next due, as its column keeps it; NULL once it has ended. */
const millisOrNull = (instant: DateTime.Utc | undefined) => (instant === undefined ? null : millis(instant))

const document = jsonColumn(DeliveryRecord)
const toRecord = (row: Row) => document.decode(row.document)

const insert = (db: SqliteConnection, record: DeliveryRecord) =>
  db.run(
    `INSERT INTO webhook_deliveries (id, webhook_id, organization_id, event_id, status, created_at, updated_at,
       next_attempt_at, document)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (webhook_id, event_id) DO NOTHING`,
    record.id,
    record.webhookId,
    record.organizationId,
    record.eventId,
    record.status,
    millis(record.createdAt),
    millis(record.updatedAt),
    millisOrNull(record.nextAttemptAt),
    document.encode(record)
  )

/** Writes a delivery as it now is, its claim ended. */
const save = (db: SqliteConnection, record: DeliveryRecord) =>
  db.run(
    `UPDATE webhook_deliveries SET status = ?, updated_at = ?, next_attempt_at = ?, lease_until = NULL,
       claim = NULL, document = ? WHERE id = ?`,
    record.status,
    millis(record.updatedAt),
    millisOrNull(record.nextAttemptAt),
    document.encode(record),
    record.id
  )

export const deliveryStoreLayer = Layer.effect(
  DeliveryStore,
  Effect.gen(function* () {
    const { read, write } = yield* SqliteDatabase
    const findIn = (db: SqliteConnection, organizationId: string, webhookId: string, id: string) =>
      optionalRow(
        db.get(
          "SELECT document FROM webhook_deliveries WHERE id = ? AND webhook_id = ? AND organization_id = ?",
          id,
          webhookId,
          organizationId
        ),
        toRecord
      )
    return DeliveryStore.of({
      enqueue: (records) =>
        records.length === 0
          ? Effect.void
          : write((db) => {
              for (const record of records) insert(db, record)
            }),
      page: (webhookId, status, after, limit) =>
        inOrganization((organizationId) =>
          read((db) => {
            const where = whereClause("webhook_id = ? AND organization_id = ?", webhookId, organizationId)
            if (status !== undefined) where.and("status = ?", status)
            if (after !== undefined) {
              const at = millis(after.createdAt)
              where.and("(created_at < ? OR (created_at = ? AND id < ?))", at, at, after.id)
            }
            return db
              .all(
                `SELECT document FROM webhook_deliveries WHERE ${where.sql()} ORDER BY created_at DESC, id DESC LIMIT ?`,
                ...where.params,
                limit
              )
              .map((row) => toDelivery(toRecord(row)))
          })
        ),
      find: (webhookId, id) =>
        inOrganization((organizationId) =>
          read((db) => Option.map(findIn(db, organizationId, webhookId, id), toDelivery))
        ),
      retry: (webhookId, id, now) =>
        inOrganization((organizationId) =>
          write((db) =>
            Option.map(findIn(db, organizationId, webhookId, id), (found) => {
              const record = retried(found, now)
              save(db, record)
              return toDelivery(record)
            })
          )
        ),
      claimDue: (now, leaseUntil, limit) =>
        write((db) => {
          const at = millis(now)
          const rows = db.all(
            `SELECT d.id, d.document, w.document AS webhook FROM webhook_deliveries d
               JOIN webhooks w ON w.id = d.webhook_id
             WHERE d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?) AND w.enabled = 1
             ORDER BY d.next_attempt_at LIMIT ?`,
            at,
            at,
            limit
          )
          return rows.map((row): ClaimedDelivery => {
            const claim = randomUUID()
            db.run(
              "UPDATE webhook_deliveries SET lease_until = ?, claim = ? WHERE id = ?",
              millis(leaseUntil),
              claim,
              String(row.id)
            )
            return {
              delivery: toRecord(row),
              webhook: toWebhookRecord({ document: row.webhook ?? null }),
              claim
            }
          })
        }),
      settle: (id, claim, outcome, now) =>
        write((db) => {
          const row = db.get("SELECT document FROM webhook_deliveries WHERE id = ? AND claim = ?", id, claim)
          if (row === undefined) return false
          const next = settled(toRecord(row), outcome, now)
          save(db, next)
          return true
        }),
      unfinishedOf: (organizationId) =>
        read((db) =>
          Number(
            db.get(
              "SELECT count(*) AS n FROM webhook_deliveries WHERE organization_id = ? AND next_attempt_at IS NOT NULL",
              organizationId
            )?.n ?? 0
          )
        ),
      prune: (before) =>
        write((db) => {
          db.run(
            "DELETE FROM webhook_deliveries WHERE next_attempt_at IS NULL AND updated_at < ?",
            millis(before)
          )
        })
    })
  })
)
