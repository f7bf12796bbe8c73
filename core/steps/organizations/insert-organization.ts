import { Effect } from "effect"
import { type AuditActor, changesBetween } from "../../model/audit.ts"
import { Organization, organizationAuditFields } from "../../model/organization.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { newAuditEntry } from "../audit/new-audit-entry.ts"
import { grantEveryPermission, insertOwnerRole } from "./owner-role.ts"

/**
 * Writes a new organisation with its built-in `Owner` role, which it records by id: the role first,
 * in an organisation nobody can reach yet, then the organisation naming it, with its audit entry,
 * then every permission granted to the role. A crash before the organisation is written leaves a
 * role nobody can reach; one after, grants that the next start finishes (`setUpOrganizations`).
 */
export const insertOrganization = Effect.fnUntraced(function* (
  organization: Organization,
  actor: AuditActor
) {
  const inOrganization = Effect.provideService(CurrentOrganization, organization.id)
  const owner = yield* inOrganization(insertOwnerRole).pipe(
    // No other role can be in an organisation that is not written yet.
    Effect.catchTag("DuplicateRoleKey", Effect.die)
  )
  const founded = new Organization({ ...organization, ownerRoleId: owner.id })
  const entry = yield* inOrganization(
    newAuditEntry(
      actor,
      "organization.created",
      { type: "organization", id: founded.id },
      changesBetween(null, founded, organizationAuditFields)
    )
  )
  const roles = yield* RoleStore
  yield* (yield* OrganizationStore)
    .insert(founded, entry)
    .pipe(Effect.tapError(() => inOrganization(roles.removeAll)))
  yield* inOrganization(grantEveryPermission(owner.id))
  return { organization: founded, owner }
})
