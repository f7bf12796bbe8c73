import { Effect } from "effect"
import type { OrganizationId } from "../../model/ids.ts"
import { CurrentOrganization } from "../../model/request.ts"
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
