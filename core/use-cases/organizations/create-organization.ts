import { DateTime, Effect } from "effect"
import { type NewOrganization, Organization } from "../../model/organization.ts"
import type { Principal } from "../../model/principal.ts"
import { requireOperator } from "../../policy/access.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { auditActorOf } from "../../steps/audit/new-audit-entry.ts"
import { insertOrganization } from "../../steps/organizations/insert-organization.ts"

/**
 * Creates an organisation with its `Owner` role (the operator's to do). The creation is recorded in
 * the new organisation's own audit record.
 */
export const createOrganization = Effect.fnUntraced(function* (actor: Principal, input: NewOrganization) {
  yield* requireOperator(actor)
  const organization = new Organization({
    id: yield* (yield* IdGenerator).next("organization"),
    name: input.name,
    slug: input.slug,
    createdAt: yield* DateTime.now
  })
  return (yield* insertOrganization(organization, auditActorOf(actor))).organization
})
