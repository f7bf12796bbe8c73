import { Effect, Layer } from "effect"
import { AuditEntry, AuditLog, defaultOrganizationId, inOrganization, isAnnounced } from "../../core/index.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { jsonColumn, millis, optionalRow, whereClause } from "./values.ts"

/** An entry as stored: whole, as JSON, beside the columns the record is read by. */
const { encode, decode } = jsonColumn(AuditEntry)

export const toEntry = (row: Row) => decode(row.document)

/**
 * Appends `entry` in the transaction `db` is in: the change and its entry are committed together,
 * so on SQLite nothing is ever pending and `relay` has nothing to move.
 */
export const appendEntry = (db: SqliteConnection, entry: AuditEntry | undefined) => {
  if (entry === undefined) return
  db.run(
    `INSERT INTO audit_events (id, organization_id, at, action, actor_id, target_id, request_key, document, unsent)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    entry.id,
    entry.organizationId ?? defaultOrganizationId,
    millis(entry.at),
    entry.action,
    entry.actor.id ?? null,
    entry.target.id,
    entry.requestKey ?? null,
    encode(entry),
    isAnnounced(entry.action) ? 1 : null
  )
}

export const auditLogLayer = Layer.effect(
  AuditLog,
  Effect.gen(function* () {
    const { read, write } = yield* SqliteDatabase
    return AuditLog.of({
      record: (entry) => write((db) => appendEntry(db, entry)),
      changeOfRequest: (requestKey) =>
        read((db) =>
          optionalRow(
            db.get("SELECT document FROM audit_events WHERE request_key = ? LIMIT 1", requestKey),
            toEntry
          )
        ),
      page: (query, limit) =>
        inOrganization((organizationId) =>
          read((db) => {
            const where = whereClause("organization_id = ?", organizationId)
            if (query.after !== undefined) {
              const at = millis(query.after.at)
              where.and("(at < ? OR (at = ? AND id < ?))", at, at, query.after.id)
            }
            if (query.action !== undefined) where.and("action = ?", query.action)
            if (query.actorId !== undefined) where.and("actor_id = ?", query.actorId)
            if (query.targetId !== undefined) where.and("target_id = ?", query.targetId)
            if (query.since !== undefined) where.and("at >= ?", millis(query.since))
            return db
              .all(
                `SELECT document FROM audit_events WHERE ${where.sql()}
                 ORDER BY at DESC, id DESC LIMIT ?`,
                ...where.params,
                limit
              )
              .map(toEntry)
          })
        )
    })
  })
)
