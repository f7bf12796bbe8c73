import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { AuditEntry, AuditLog, defaultOrganizationId, inOrganization, isAnnounced } from "../../core/index.ts"
import { PostgresDatabase, type Row, type Run } from "./database.ts"

const json = Schema.toCodecJson(AuditEntry)
const encode = Schema.encodeSync(json)
const decode = Schema.decodeUnknownSync(json)
const toEntry = (row: Row) => decode(row.document)

/**
 * Appends `entry` in the transaction `run` is in: the change and its entry are committed together,
 * so nothing is ever pending; an announced change's entry waits, `unsent`, for the outbound events.
 */
export const appendEntry = async (run: Run, entry: AuditEntry | undefined) => {
  if (entry === undefined) return
  await run(
    `INSERT INTO audit_events (id, organization_id, at, action, actor_id, target_id, request_key, document, unsent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`,
    [
      entry.id,
      entry.organizationId ?? defaultOrganizationId,
      DateTime.formatIso(entry.at),
      entry.action,
      entry.actor.id ?? null,
      entry.target.id,
      entry.requestKey ?? null,
      JSON.stringify(encode(entry)),
      isAnnounced(entry.action) ? true : null
    ]
  )
}

/** The audit record on PostgreSQL: what the kit's writes appended, read newest first. */
export const auditLogLayer = Layer.effect(
  AuditLog,
  Effect.gen(function* () {
    const db = yield* PostgresDatabase
    return AuditLog.of({
      record: (entry) =>
        db.transaction((run) => appendEntry(run, entry)).pipe(Effect.catchTag("UniqueViolation", Effect.die)),
      changeOfRequest: (requestKey) =>
        db
          .read("SELECT document FROM audit_events WHERE request_key = $1 LIMIT 1", [requestKey])
          .pipe(Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toEntry))),
      page: (query, limit) =>
        inOrganization((organizationId) => {
          const params: Array<unknown> = [organizationId]
          const bind = (value: unknown) => `$${params.push(value)}`
          const conditions = [`organization_id = $1`]
          if (query.after !== undefined) {
            const at = bind(DateTime.formatIso(query.after.at))
            conditions.push(`(at < ${at} OR (at = ${at} AND id < ${bind(query.after.id)}))`)
          }
          if (query.action !== undefined) conditions.push(`action = ${bind(query.action)}`)
          if (query.actorId !== undefined) conditions.push(`actor_id = ${bind(query.actorId)}`)
          if (query.targetId !== undefined) conditions.push(`target_id = ${bind(query.targetId)}`)
          if (query.since !== undefined) conditions.push(`at >= ${bind(DateTime.formatIso(query.since))}`)
          return db.read(
            `SELECT document FROM audit_events WHERE ${conditions.join(" AND ")}
             ORDER BY at DESC, id DESC LIMIT ${bind(limit)}`,
            params
          )
        }).pipe(Effect.map((rows) => rows.map(toEntry)))
    })
  })
)
