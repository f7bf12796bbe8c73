import { Effect, Option } from "effect"
import { Forbidden, NotFound, SubscriptionActive } from "../../model/errors.ts"
import type { OrganizationId } from "../../model/ids.ts"
import { defaultOrganizationId } from "../../model/organization.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { requireEveryPermission } from "../../policy/access.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"
import { DomainStore } from "../../ports/domain-store.ts"
import { InvitationStore } from "../../ports/invitation-store.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { ScimTokenStore } from "../../ports/scim-token-store.ts"
import { SsoConnectionStore } from "../../ports/sso-connection-store.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { auditActorOf, newAuditEntry } from "../audit/new-audit-entry.ts"
import { currentOrganization } from "./current-organization.ts"

/**
 * What deleting an organisation leaves to do once it is marked: first what lets anyone in or holds a
 * domain (its domains, released for another organisation to verify at once, and its single sign-on
 * connections with the identities linked through them, their sealed secrets and SP keys), then its
 * SCIM tokens and API keys, its invitations, its provisioning profiles, its members (their sessions
 * end with them, accounts left with no membership too), its permission records, its roles, then its
 * own document. Each step deletes what is left, so it is finished at the next start when a crash
 * stopped it (`setUpOrganizations`).
 */
export const finishDeleting = (organizationId: OrganizationId) =>
  Effect.gen(function* () {
    yield* (yield* DomainStore).removeAll
    yield* (yield* SsoConnectionStore).removeAll
    yield* (yield* ScimTokenStore).removeAll
    yield* (yield* ApiKeyStore).removeAll
    yield* (yield* InvitationStore).removeAll
    yield* (yield* ProvisioningStore).removeAll
    yield* (yield* MemberStore).removeAll
    yield* (yield* RolePermissionStore).removeAll
    yield* (yield* RoleStore).removeAll
    yield* (yield* OrganizationStore).remove(organizationId)
  }).pipe(Effect.provideService(CurrentOrganization, organizationId))

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
