import { DateTime, Effect, Redacted } from "effect"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import {
  type AddDomainInput,
  challengeName,
  normalizeDomain,
  SsoDomainRecord,
  toSsoDomain
} from "../../model/sso-domain.ts"
import { requirePermission } from "../../policy/access.ts"
import { DomainStore } from "../../ports/domain-store.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { requireDomainFree } from "../../steps/sso/require-domain-free.ts"

/**
 * Claims a domain for the organisation, pending until DNS proves it: the answer names the TXT
 * record to publish (`txtName`) and its value (32 random bytes). A domain another organisation
 * verified is refused, as is one this organisation claimed already.
 */
export const addDomain = Effect.fnUntraced(function* (actor: Principal, input: AddDomainInput) {
  yield* requirePermission(actor, "organization.sso.write")
  const domain = normalizeDomain(input.domain)
  yield* requireDomainFree(domain)
  const { token } = yield* (yield* TokenIssuer).issue("domain")
  const record = new SsoDomainRecord({
    id: yield* (yield* IdGenerator).next("domain"),
    organizationId: yield* CurrentOrganization,
    domain,
    status: "pending",
    txtName: challengeName(domain),
    txtValue: Redacted.value(token),
    createdAt: yield* DateTime.now,
    verifiedAt: null
  })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "domain.created",
    { type: "domain", id: record.id },
    { domain: [null, domain], status: [null, "pending"] }
  )
  yield* (yield* DomainStore).insert(record, entry)
  return toSsoDomain(record)
})
