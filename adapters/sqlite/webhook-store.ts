import { Effect, Layer, Option } from "effect"
import {
  type AuditEntry,
  inOrganization,
  maxWebhooks,
  OrganizationId,
  toWebhook,
  WebhookLimit,
  WebhookRecord,
  WebhookStore
} from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { flag, jsonColumn, millis, optionalRow, text } from "./values.ts"

/** An endpoint as stored: whole, as JSON, beside the columns it is found and ordered by. */
export const webhookDocument = jsonColumn(WebhookRecord)
export const toWebhookRecord = (row: Row) => webhookDocument.decode(row.document)

const save = (db: SqliteConnection, record: WebhookRecord) =>
  db.run(
    "UPDATE webhooks SET enabled = ?, document = ? WHERE id = ?",
    flag(record.enabled),
    webhookDocument.encode(record),
    record.id
  )

export const webhookStoreLayer = Layer.effect(
  WebhookStore,
  Effect.gen(function* () {
    const { read, write } = yield* SqliteDatabase
    const findIn = (db: SqliteConnection, id: string, organizationId?: string) =>
      optionalRow(
        organizationId === undefined
          ? db.get("SELECT document FROM webhooks WHERE id = ?", id)
          : db.get("SELECT document FROM webhooks WHERE id = ? AND organization_id = ?", id, organizationId),
        toWebhookRecord
      )
    /** Writes the organisation's endpoint as `change` makes it, with its entry; answers it then. */
    const changed = (
      id: string,
      entry: AuditEntry,
      change: (record: WebhookRecord) => Partial<WebhookRecord>
    ) =>
      inOrganization((organizationId) =>
        write((db) =>
          Option.map(findIn(db, id, organizationId), (record) => {
            const next = new WebhookRecord({ ...record, ...change(record) }, { disableChecks: true })
            save(db, next)
            appendEntry(db, entry)
            return toWebhook(next)
          })
        )
      )
    return WebhookStore.of({
      insert: (record, entry) =>
        write((db) => {
          const held = Number(
            db.get("SELECT count(*) AS n FROM webhooks WHERE organization_id = ?", record.organizationId)
              ?.n ?? 0
          )
          if (held >= maxWebhooks) return false
          db.run(
            "INSERT INTO webhooks (id, organization_id, created_at, enabled, document) VALUES (?, ?, ?, ?, ?)",
            record.id,
            record.organizationId,
            millis(record.createdAt),
            flag(record.enabled),
            webhookDocument.encode(record)
          )
          appendEntry(db, entry)
          return true
        }).pipe(
          Effect.flatMap((added) =>
            added ? Effect.void : Effect.fail(new WebhookLimit({ limit: maxWebhooks }))
          )
        ),
      page: (after, limit) =>
        inOrganization((organizationId) =>
          read((db) => {
            const rows =
              after === undefined
                ? db.all(
                    "SELECT document FROM webhooks WHERE organization_id = ? ORDER BY created_at, id LIMIT ?",
                    organizationId,
                    limit
                  )
                : db.all(
                    `SELECT document FROM webhooks WHERE organization_id = ?
                       AND (created_at > ? OR (created_at = ? AND id > ?)) ORDER BY created_at, id LIMIT ?`,
                    organizationId,
                    millis(after.createdAt),
                    millis(after.createdAt),
                    after.id,
                    limit
                  )
            return rows.map((row) => toWebhook(toWebhookRecord(row)))
          })
        ),
      find: (id) => inOrganization((organizationId) => read((db) => findIn(db, id, organizationId))),
      update: (id, changes, entry) =>
        changed(id, entry, () => ({
          ...changes,
          ...(changes.enabled === true ? { failingSince: null } : {})
        })),
      rotate: (id, secret, previous, entry) => changed(id, entry, () => ({ secret, previous })),
      remove: (id, entry) =>
        inOrganization((organizationId) =>
          write((db) =>
            Option.map(findIn(db, id, organizationId), (record) => {
              db.run("DELETE FROM webhook_deliveries WHERE webhook_id = ?", id)
              db.run("DELETE FROM webhooks WHERE id = ?", id)
              appendEntry(db, entry)
              return toWebhook(record)
            })
          )
        ),
      enabledOf: (organizationId) =>
        read((db) =>
          db
            .all("SELECT document FROM webhooks WHERE organization_id = ? AND enabled = 1", organizationId)
            .map(toWebhookRecord)
        ),
      organizationsWithEndpoints: read((db) =>
        db
          .all("SELECT DISTINCT organization_id FROM webhooks")
          .map((row) => OrganizationId.make(text(row.organization_id)))
      ),
      removeAllOf: (organizationId) =>
        write((db) => {
          db.run("DELETE FROM webhook_deliveries WHERE organization_id = ?", organizationId)
          db.run("DELETE FROM webhooks WHERE organization_id = ?", organizationId)
        }),
      noteFailing: (id, at) =>
        write((db) => {
          const record = Option.getOrUndefined(findIn(db, id))
          if (record === undefined) return at
          if (record.failingSince !== null) return record.failingSince
          save(db, new WebhookRecord({ ...record, failingSince: at }, { disableChecks: true }))
          return at
        }),
      noteSuccess: (id) =>
        write((db) => {
          const record = Option.getOrUndefined(findIn(db, id))
          if (record !== undefined && record.failingSince !== null) {
            save(db, new WebhookRecord({ ...record, failingSince: null }, { disableChecks: true }))
          }
        }),
      disable: (id, entry) =>
        write((db) => {
          const record = Option.getOrUndefined(findIn(db, id))
          if (record === undefined || !record.enabled) return false
          save(db, new WebhookRecord({ ...record, enabled: false }, { disableChecks: true }))
          appendEntry(db, entry)
          return true
        })
    })
  })
)
