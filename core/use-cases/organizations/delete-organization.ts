import { Effect, Option } from "effect"
import { Forbidden, NotFound, SubscriptionActive } from "../../model/errors.ts"
import { defaultOrganizationId } from "../../model/organization.ts"
import type { Principal } from "../../model/principal.ts"
import { requireEveryPermission } from "../../policy/access.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"
import { finishDeleting } from "../../steps/organizations/finish-deleting.ts"

/**
 * Deletes the caller's organisation with its members, roles and permission records; its audit
 * record stays. Only an owner (every permission of the catalog) or the operator: the owners'
 * accounts may go with their only membership. Not the default organisation, and not while a subscription is open (cancel it first).
 */
export const deleteOrganization = Effect.fnUntraced(function* (actor: Principal) {
  yield* requireEveryPermission(actor)
  const organization = yield* currentOrganization
  if (organization.id === defaultOrganizationId)
    return yield* new Forbidden({ reason: "default_organization" })
  const [open] = yield* (yield* SubscriptionStore).listOpen
  if (open !== undefined) return yield* new SubscriptionActive({ subscriptionId: open.id })
  const entry = yield* newAuditEntry(auditActorOf(actor), "organization.deleted", {
    type: "organization",
    id: organization.id
  })
  const marked = yield* (yield* OrganizationStore).startDeleting(organization.id, entry)
  if (Option.isNone(marked)) return yield* new NotFound({ entity: "organization", id: organization.id })
  yield* finishDeleting(organization.id)
  return marked.value
})
