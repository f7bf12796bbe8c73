import { DateTime, Effect, Option } from "effect"
import { Forbidden, NotFound } from "../../model/errors.ts"
import type { DomainId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { SsoDomainRecord, toSsoDomain, type VerifyDomainInput } from "../../model/sso-domain.ts"
import { DomainUnverified } from "../../model/sso-errors.ts"
import { requirePermission } from "../../policy/access.ts"
import { DnsRecords } from "../../ports/dns-records.ts"
import { DomainStore } from "../../ports/domain-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

/**
 * Proves a claimed domain: its TXT record must hold its value (what was found is named when it
 * does not). The operator may say it is verified without DNS. A domain another organisation
 * verified meanwhile is refused; verifying one verified already changes nothing.
 */
export const verifyDomain = Effect.fnUntraced(function* (
  actor: Principal,
  id: DomainId,
  input: VerifyDomainInput = {}
) {
  yield* requirePermission(actor, "organization.sso.write")
  if (input.verified === true && actor._tag !== "Master")
    return yield* new Forbidden({ reason: "operator_only" })
  const domains = yield* DomainStore
  const found = yield* domains.find(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "domain", id })
  const claimed = found.value
  if (claimed.status === "verified") return toSsoDomain(claimed)
  if (input.verified !== true) {
    const values = yield* (yield* DnsRecords).txt(claimed.txtName)
    if (!values.includes(claimed.txtValue)) {
      return yield* new DomainUnverified({ domain: claimed.domain, txtName: claimed.txtName, found: values })
    }
  }
  const verified = new SsoDomainRecord({ ...claimed, status: "verified", verifiedAt: yield* DateTime.now })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "domain.verified",
    { type: "domain", id },
    { domain: [claimed.domain, claimed.domain], status: ["pending", "verified"] }
  )
  const written = yield* domains.markVerified(verified, entry)
  if (Option.isNone(written)) return yield* new NotFound({ entity: "domain", id })
  return toSsoDomain(written.value)
})
