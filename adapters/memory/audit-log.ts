import { Context, DateTime, Effect, Layer } from "effect"
import { type AuditEntry, AuditLog, type AuditQuery } from "../../core/index.ts"

/**
 * The audit record in process memory, shared by the in-memory stores of one build: each appends a
 * change's entry in the same synchronous step as the change, so nothing is ever pending.
 */
export class MemoryAuditTrail extends Context.Service<
  MemoryAuditTrail,
  { readonly append: (entry: AuditEntry | undefined) => void; readonly entries: ReadonlyArray<AuditEntry> }
>()("roster/memory/MemoryAuditTrail") {}

export const auditTrailLayer = Layer.sync(MemoryAuditTrail, () => {
  const entries: Array<AuditEntry> = []
  return MemoryAuditTrail.of({
    append: (entry) => {
      if (entry !== undefined) entries.push(entry)
    },
    entries
  })
})

const millis = DateTime.toEpochMillis

interface Positioned {
  readonly at: DateTime.Utc
  readonly id: string
}

/** Newest first, the id breaking ties. */
const newestFirst = (a: Positioned, b: Positioned) =>
  millis(b.at) - millis(a.at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

const matches = (entry: AuditEntry, query: AuditQuery) =>
  (query.after === undefined || newestFirst(query.after, entry) < 0) &&
  (query.action === undefined || entry.action === query.action) &&
  (query.actorId === undefined || entry.actor.id === query.actorId) &&
  (query.targetId === undefined || entry.target.id === query.targetId) &&
  (query.since === undefined || millis(entry.at) >= millis(query.since))

export const auditLogLayer = Layer.effect(
  AuditLog,
  Effect.gen(function* () {
    const trail = yield* MemoryAuditTrail
    return AuditLog.of({
      record: (entry) => Effect.sync(() => trail.append(entry)),
      relay: () => Effect.void,
      page: (query, limit) =>
        Effect.sync(() =>
          trail.entries
            .filter((entry) => matches(entry, query))
            .sort(newestFirst)
            .slice(0, limit)
        )
    })
  })
)
