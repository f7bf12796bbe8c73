import { DateTime, Effect } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { type NewOrganization, Organization, organizationAuditFields } from "../../model/organization.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { requireOperator } from "../../policy/access.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { auditActorOf, newAuditEntry, relayAudit } from "../audit/new-audit-entry.ts"
import { setUpOrganization } from "./set-up-organization.ts"

/**
 * Creates an organisation with its `Owner` role (the operator's to do). The creation is recorded in
 * the new organisation's own audit record. A crash before the role is made leaves an organisation
 * without it until the next start finishes it (`setUpOrganization`).
 */
export const createOrganization = Effect.fnUntraced(function* (actor: Principal, input: NewOrganization) {
  yield* requireOperator(actor)
  const organization = new Organization({
    id: yield* (yield* IdGenerator).organizationId,
    name: input.name,
    slug: input.slug,
    createdAt: yield* DateTime.now
  })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "organization.created",
    { type: "organization", id: organization.id },
    changesBetween(null, organization, organizationAuditFields)
  ).pipe(Effect.provideService(CurrentOrganization, organization.id))
  yield* (yield* OrganizationStore).insert(organization, entry)
  yield* relayAudit(entry)
  yield* setUpOrganization(organization.id)
  return organization
})
