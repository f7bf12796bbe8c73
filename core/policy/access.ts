import { Effect } from "effect"
import { Forbidden } from "../model/errors.ts"
import type { PermissionId } from "../model/ids.ts"
import { isActiveMember, type MemberRecord } from "../model/member.ts"
import { allPermissionIds, type PermissionKey, permissionIdOf } from "../model/permission.ts"
import type { PermissionSet } from "../model/permission-set.ts"
import type { Principal } from "../model/principal.ts"
import { CurrentOrganization } from "../model/request.ts"
import type { Role } from "../model/role.ts"

export const permissionsOf = (principal: Principal): PermissionSet =>
  principal._tag === "Member" ? new Set<PermissionId>(principal.permissionIds) : allPermissionIds

const holding = (principal: Principal, permission: PermissionKey): Effect.Effect<void, Forbidden> =>
  permissionsOf(principal).has(permissionIdOf(permission))
    ? Effect.void
    : Effect.fail(new Forbidden({ reason: "missing_permission", permission }))

/**
 * The caller holds `permission`, and acts where it may: a member only in its own organisation,
 * whatever organisation the use case was given (`CurrentOrganization`), so no wiring mistake of an
 * embedding lets a member act in another. The operator acts in any.
 */
export const requirePermission = (
  principal: Principal,
  permission: PermissionKey
): Effect.Effect<void, Forbidden> =>
  principal._tag === "Member"
    ? CurrentOrganization.use((organizationId) =>
        organizationId === principal.organizationId
          ? holding(principal, permission)
          : Effect.fail(new Forbidden({ reason: "other_organization" }))
      )
    : holding(principal, permission)

/** A member acts only while their membership, their account and their role are all active. */
export const canAct = (member: MemberRecord, role: Role | undefined): boolean =>
  isActiveMember(member) && role?.activeStatus === true

/** What only the operator may do (the master key, or open local mode): never a member of an organisation. */
export const requireOperator = (principal: Principal): Effect.Effect<void, Forbidden> =>
  principal._tag === "Member" ? Effect.fail(new Forbidden({ reason: "operator_only" })) : Effect.void
