import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { DomainId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { toSsoDomain } from "../../model/sso-domain.ts"
import { requirePermission } from "../../policy/access.ts"
import { DomainStore } from "../../ports/domain-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

/** Gives a domain up: its members are no longer made just in time, nor held to single sign-on. */
export const removeDomain = Effect.fnUntraced(function* (actor: Principal, id: DomainId) {
  yield* requirePermission(actor, "organization.sso.write")
  const domains = yield* DomainStore
  const found = yield* domains.find(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "domain", id })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "domain.deleted",
    { type: "domain", id },
    { domain: [found.value.domain, null], status: [found.value.status, null] }
  )
  const removed = yield* domains.remove(id, entry)
  if (Option.isNone(removed)) return yield* new NotFound({ entity: "domain", id })
  return toSsoDomain(removed.value)
})
