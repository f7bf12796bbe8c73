import { Effect } from "effect"
import { Forbidden } from "../model/errors.ts"
import type { OrganizationId, PermissionId } from "../model/ids.ts"
import { isActiveMember, type MemberRecord } from "../model/member.ts"
import { allPermissionIds, type PermissionKey, permissionIdOf } from "../model/permission.ts"
import {
  everyPermission,
  everyPermissionSet,
  isSubsetOf,
  type PermissionSet
} from "../model/permission-set.ts"
import type { Principal } from "../model/principal.ts"
import { CurrentOrganization } from "../model/request.ts"
import type { RoleStanding } from "../model/role.ts"
import { keysOf } from "./permission-catalog.ts"

const organizationWrite = permissionIdOf("organization.write")

/**
 * What a SCIM token may be given: its creator's permissions but `organization.write`, so that by the
 * ceiling it never touches a role holding that (the owners') nor its holders, and a token never
 * makes more of its creator than they are. A creator holding every permission gives the marker:
 * the token holds the product's permissions declared later too.
 */
export const scimTokenPermissions = (creator: Principal): ReadonlyArray<PermissionId> =>
  [...permissionsOf(creator)].filter((id) => id !== organizationWrite).sort((a, b) => a - b)

const noPermissions: PermissionSet = new Set<PermissionId>()
const everything = everyPermissionSet(allPermissionIds)

// A role's permission ids are the same array while its record is unchanged (the stores replace a
// record they change), so its set is made once, not on every request that checks a permission. The
// array is frozen then: changing it in place, which would leave its set stale, throws instead.
const setsOf = new WeakMap<ReadonlyArray<PermissionId>, PermissionSet>()
/** What a list of permission ids holds (the marker read as every permission), made once per list. */
export const permissionSetOf = (ids: ReadonlyArray<PermissionId>): PermissionSet => {
  let set = setsOf.get(ids)
  if (set === undefined) {
    set = ids.includes(everyPermission) ? everyPermissionSet(Object.freeze(ids)) : new Set(Object.freeze(ids))
    setsOf.set(ids, set)
  }
  return set
}

/**
 * What the caller may do. A session waiting for its account's second factor (its organisation
 * requires one) holds nothing until the account has TOTP.
 */
export const permissionsOf = (principal: Principal): PermissionSet => {
  switch (principal._tag) {
    case "Member":
      return principal.mfaPending === true ? noPermissions : permissionSetOf(principal.permissionIds)
    case "ApiKey":
      return permissionSetOf(principal.permissionIds)
    case "Scim":
      return principal.permissionIds.includes(everyPermission)
        ? everyPermissionSet(principal.permissionIds, organizationWrite)
        : new Set<PermissionId>(principal.permissionIds.filter((id) => id !== organizationWrite))
    default:
      return everything
  }
}

/**
 * The keys of what the caller may do, in the catalog's order (Roster's, then the product's declared
 * ones): what `GET /auth/me` lists and an access token carries (`permissions`). The one place keys
 * are made of a caller's permissions, so that both always say the same.
 */
export const permissionKeysOf = (principal: Principal) => keysOf(permissionsOf(principal))

/** The organisation a caller is bound to, if any: a session's, a SCIM token's or an API key's. */
export const boundOrganizationOf = (principal: Principal): OrganizationId | undefined =>
  // Stryker disable next-line ConditionalExpression: the operator and open local mode carry no organisation to read
  "organizationId" in principal ? principal.organizationId : undefined

const holding = (principal: Principal, permission: PermissionKey): Effect.Effect<void, Forbidden> =>
  permissionsOf(principal).has(permissionIdOf(permission))
    ? Effect.void
    : Effect.fail(new Forbidden({ reason: "missing_permission", permission }))

/**
 * The caller holds `permission`, and acts where it may: a member or a SCIM token only in its own organisation,
 * whatever organisation the use case was given (`CurrentOrganization`), so no wiring mistake of an
 * embedding lets a member act in another. The operator acts in any.
 */
export const requirePermission = (
  principal: Principal,
  permission: PermissionKey
): Effect.Effect<void, Forbidden> => {
  const bound = boundOrganizationOf(principal)
  return bound === undefined
    ? holding(principal, permission)
    : CurrentOrganization.use((organizationId) =>
        organizationId === bound
          ? holding(principal, permission)
          : Effect.fail(new Forbidden({ reason: "other_organization" }))
      )
}

/** A member acts only while their membership, their account and their role are all active. */
export const canAct = (member: MemberRecord, role: RoleStanding | undefined): boolean =>
  isActiveMember(member) && role?.activeStatus === true

/** What only the operator may do (the master key, or open local mode): never a member, a SCIM token or an API key. */
export const requireOperator = (principal: Principal): Effect.Effect<void, Forbidden> =>
  boundOrganizationOf(principal) === undefined
    ? Effect.void
    : Effect.fail(new Forbidden({ reason: "operator_only" }))

/**
 * The caller holds every permission of Roster's catalog (an owner: the product's permissions never
 * decide who is one), or is the operator: for what takes
 * the organisation's owners with it, which no lesser permission may do.
 */
export const requireEveryPermission = (principal: Principal): Effect.Effect<void, Forbidden> =>
  Effect.flatMap(requirePermission(principal, "organization.write"), () =>
    isSubsetOf(allPermissionIds, permissionsOf(principal))
      ? Effect.void
      : Effect.fail(new Forbidden({ reason: "owner_only" }))
  )
