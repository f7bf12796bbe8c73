import { Context, DateTime, Effect, Layer, Option } from "effect"
import {
  AuditEntry,
  AuditLog,
  type AuditQuery,
  defaultOrganizationId,
  type OrganizationId
} from "../../core/index.ts"
import { syncInOrganization } from "../organization-scope.ts"

/**
 * An entry as the trail keeps it: flat, its changes as JSON. Kept as an `AuditEntry` (its date,
 * actor, target and changes objects, its id), an entry held ~830 bytes in 21 cells; a row holds ~300
 * in 4, and under a stream of writes the trail is most of what the process holds. Entries are read
 * through `AuditLog.page`, which rebuilds them.
 */
export interface AuditTrailRow {
  readonly at: number
  readonly id: AuditEntry["id"]
  readonly action: AuditEntry["action"]
  readonly actorKind: AuditEntry["actor"]["kind"]
  readonly actorId: string | undefined
  readonly targetType: AuditEntry["target"]["type"]
  readonly targetId: string
  readonly changes: string
  readonly requestId: string | undefined
  readonly requestKey: string | undefined
  readonly organizationId: OrganizationId
}

const toRow = (entry: AuditEntry): AuditTrailRow => ({
  at: DateTime.toEpochMillis(entry.at),
  id: entry.id,
  action: entry.action,
  actorKind: entry.actor.kind,
  actorId: entry.actor.id,
  targetType: entry.target.type,
  targetId: entry.target.id,
  // Audited fields hold JSON values only (`changesBetween` compares them as JSON).
  changes: JSON.stringify(entry.changes),
  requestId: entry.requestId,
  requestKey: entry.requestKey,
  organizationId: entry.organizationId ?? defaultOrganizationId
})

const toEntry = (row: AuditTrailRow) =>
  new AuditEntry({
    id: row.id,
    at: DateTime.makeUnsafe(row.at),
    action: row.action,
    actor: row.actorId === undefined ? { kind: row.actorKind } : { kind: row.actorKind, id: row.actorId },
    target: { type: row.targetType, id: row.targetId },
    changes: JSON.parse(row.changes),
    ...(row.requestId === undefined ? {} : { requestId: row.requestId }),
    ...(row.requestKey === undefined ? {} : { requestKey: row.requestKey }),
    organizationId: row.organizationId
  })

/**
 * The audit record in process memory, shared by the in-memory stores of one build: each appends a
 * change's entry in the same synchronous step as the change, so nothing is ever pending.
 */
export class MemoryAuditTrail extends Context.Service<
  MemoryAuditTrail,
  { readonly append: (entry: AuditEntry | undefined) => void; readonly rows: ReadonlyArray<AuditTrailRow> }
>()("roster/memory/MemoryAuditTrail") {}

export const auditTrailLayer = Layer.sync(MemoryAuditTrail, () => {
  const rows: Array<AuditTrailRow> = []
  return MemoryAuditTrail.of({
    append: (entry) => {
      if (entry !== undefined) rows.push(toRow(entry))
    },
    rows
  })
})

interface Positioned {
  readonly at: number
  readonly id: string
}

/** Newest first, the id breaking ties. */
const newestFirst = (a: Positioned, b: Positioned) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

const matches = (
  organizationId: OrganizationId,
  row: AuditTrailRow,
  query: AuditQuery,
  after: Positioned | undefined,
  since: number | undefined
) =>
  row.organizationId === organizationId &&
  (after === undefined || newestFirst(after, row) < 0) &&
  (query.action === undefined || row.action === query.action) &&
  (query.actorId === undefined || row.actorId === query.actorId) &&
  (query.targetId === undefined || row.targetId === query.targetId) &&
  (since === undefined || row.at >= since)

export const auditLogLayer = Layer.effect(
  AuditLog,
  Effect.gen(function* () {
    const trail = yield* MemoryAuditTrail
    return AuditLog.of({
      record: (entry) => Effect.sync(() => trail.append(entry)),
      relay: () => Effect.void,
      changeOfRequest: (requestKey) =>
        Effect.sync(() =>
          Option.map(Option.fromUndefinedOr(trail.rows.find((row) => row.requestKey === requestKey)), toEntry)
        ),
      page: (query, limit) =>
        syncInOrganization((organizationId) => {
          const after =
            query.after === undefined
              ? undefined
              : { at: DateTime.toEpochMillis(query.after.at), id: query.after.id }
          const since = query.since === undefined ? undefined : DateTime.toEpochMillis(query.since)
          return trail.rows
            .filter((row) => matches(organizationId, row, query, after, since))
            .sort(newestFirst)
            .slice(0, limit)
            .map(toEntry)
        })
    })
  })
)
