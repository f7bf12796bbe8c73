import { Effect, Schema } from "effect"
import { type AuditEntry, AuditFilter, AuditPosition } from "../../model/audit.ts"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { AuditLog } from "../../ports/audit-log.ts"

export const ListAuditEventsInput = Schema.Struct({
  ...AuditFilter.fields,
  limit: Schema.optionalKey(PageLimit),
  after: Schema.optionalKey(AuditPosition)
})
export type ListAuditEventsInput = typeof ListAuditEventsInput.Type

/** One page of the audit record, newest first, filtered. */
export const listAuditEvents = Effect.fnUntraced(function* (
  actor: Principal,
  input: ListAuditEventsInput = {}
) {
  yield* requirePermission(actor, "audit.read")
  const { limit = defaultPageLimit, ...query } = input
  const rows = yield* (yield* AuditLog).page(query, limit + 1)
  const page: Page<AuditEntry, AuditPosition> = pageOf(rows, limit, (entry) => ({
    at: entry.at,
    id: entry.id
  }))
  return page
})
