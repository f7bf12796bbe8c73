import { Context, DateTime, Effect, Layer, Option } from "effect"
import {
  AuditEntry,
  AuditLog,
  type AuditQuery,
  defaultOrganizationId,
  isAnnounced,
  type OrganizationId,
  syncInOrganization
} from "../../core/index.ts"
import { type AuditColumns, auditColumns, type FilteredField } from "./audit-columns.ts"

/** An entry's text as the trail keeps it: `[id, changes, requestId, requestKey, method]`. */
type EntryText = [
  AuditEntry["id"],
  AuditEntry["changes"],
  string | null,
  string | null,
  AuditEntry["method"] | null
]

const fieldsOf = (entry: AuditEntry) => ({
  organizationId: entry.organizationId ?? defaultOrganizationId,
  action: entry.action,
  actorKind: entry.actor.kind,
  actorId: entry.actor.id,
  targetType: entry.target.type,
  targetId: entry.target.id
})

export const entryAt = (columns: AuditColumns, index: number) => {
  // Audited fields hold JSON values only (`changesBetween` compares them as JSON).
  const [id, changes, requestId, requestKey, method] = JSON.parse(columns.textAt(index)) as EntryText
  const actorId = columns.valueAt(index, "actorId")
  return new AuditEntry({
    id,
    at: DateTime.makeUnsafe(columns.at(index)),
    action: columns.valueAt(index, "action") as AuditEntry["action"],
    actor: {
      kind: columns.valueAt(index, "actorKind") as AuditEntry["actor"]["kind"],
      ...(actorId === undefined ? {} : { id: actorId })
    },
    target: {
      type: columns.valueAt(index, "targetType") as AuditEntry["target"]["type"],
      id: columns.valueAt(index, "targetId") ?? ""
    },
    changes,
    ...(requestId === null ? {} : { requestId }),
    ...(requestKey === null ? {} : { requestKey }),
    ...(method === null || method === undefined ? {} : { method }),
    organizationId: columns.valueAt(index, "organizationId") as OrganizationId
  })
}

/**
 * The audit record in process memory, shared by the in-memory stores of one build: each appends a
 * change's entry in the same synchronous step as the change, so nothing is ever pending. Entries
 * are kept as columns (`auditColumns`) and rebuilt for the page asked for.
 */
export class MemoryAuditTrail extends Context.Service<
  MemoryAuditTrail,
  {
    readonly append: (entry: AuditEntry | undefined) => void
    readonly columns: AuditColumns
    /** The entry recorded under each request key, by its place in the columns. */
    readonly byRequestKey: ReadonlyMap<string, number>
    /** The announced entries not yet sent (`EventSource`), oldest first, by their place. */
    readonly unsent: Map<string, number>
  }
>()("roster/memory/MemoryAuditTrail") {}

export const auditTrailLayer = Layer.sync(MemoryAuditTrail, () => {
  const columns = auditColumns()
  const byRequestKey = new Map<string, number>()
  const unsent = new Map<string, number>()
  return MemoryAuditTrail.of({
    append: (entry) => {
      if (entry === undefined) return
      const text: EntryText = [
        entry.id,
        entry.changes,
        entry.requestId ?? null,
        entry.requestKey ?? null,
        entry.method ?? null
      ]
      const index = columns.append(DateTime.toEpochMillis(entry.at), fieldsOf(entry), JSON.stringify(text))
      if (entry.requestKey !== undefined) byRequestKey.set(entry.requestKey, index)
      if (isAnnounced(entry.action)) unsent.set(entry.id, index)
    },
    columns,
    byRequestKey,
    unsent
  })
})

interface Positioned {
  readonly at: number
  readonly id: () => string
}

/**
 * The places of the entries of `organizationId` matching `query`, newest first (the id breaking
 * ties), at most `limit`.
 */
const pageOf = (columns: AuditColumns, organizationId: OrganizationId, query: AuditQuery, limit: number) => {
  const filters: Array<readonly [FilteredField, number]> = []
  const filterOn = (field: FilteredField, value: string | undefined) => {
    if (value !== undefined) filters.push([field, columns.find(field, value)])
  }
  filterOn("organizationId", organizationId)
  filterOn("action", query.action)
  filterOn("actorId", query.actorId)
  filterOn("targetId", query.targetId)
  const since = query.since === undefined ? undefined : DateTime.toEpochMillis(query.since)
  const ids = new Map<number, string>()
  const idAt = (index: number) => {
    let id = ids.get(index)
    if (id === undefined) {
      id = (JSON.parse(columns.textAt(index)) as EntryText)[0]
      ids.set(index, id)
    }
    return id
  }
  /** Newest first, the id breaking ties (read only then). */
  const order = (a: Positioned, b: Positioned) => {
    if (a.at !== b.at) return b.at - a.at
    const [first, second] = [a.id(), b.id()]
    return first < second ? 1 : first > second ? -1 : 0
  }
  const placed = (index: number): Positioned => ({ at: columns.at(index), id: () => idAt(index) })
  const { after } = query
  const cursor =
    after === undefined ? undefined : { at: DateTime.toEpochMillis(after.at), id: () => after.id }
  const found: Array<number> = []
  for (let index = 0; index < columns.size; index++) {
    if (!filters.every(([field, value]) => columns.indexAt(index, field) === value)) continue
    if (since !== undefined && columns.at(index) < since) continue
    if (cursor !== undefined && order(cursor, placed(index)) >= 0) continue
    found.push(index)
  }
  return found.sort((a, b) => order(placed(a), placed(b))).slice(0, limit)
}

export const auditLogLayer = Layer.effect(
  AuditLog,
  Effect.gen(function* () {
    const trail = yield* MemoryAuditTrail
    return AuditLog.of({
      record: (entry) => Effect.sync(() => trail.append(entry)),
      changeOfRequest: (requestKey) =>
        Effect.sync(() =>
          Option.map(Option.fromUndefinedOr(trail.byRequestKey.get(requestKey)), (index) =>
            entryAt(trail.columns, index)
          )
        ),
      page: (query, limit) =>
        syncInOrganization((organizationId) =>
          pageOf(trail.columns, organizationId, query, limit).map((index) => entryAt(trail.columns, index))
        )
    })
  })
)
