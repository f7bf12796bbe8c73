import { Effect, Option } from "effect"
import { Forbidden, LastOwner } from "../model/errors.ts"
import type { MemberId, PermissionId, RoleId } from "../model/ids.ts"
import { isActiveMember } from "../model/member.ts"
import { allPermissionIds } from "../model/permission.ts"
import { everyPermission, isSubsetOf, sortedPermissions } from "../model/permission-set.ts"
import type { Principal } from "../model/principal.ts"
import { MemberStore } from "../ports/member-store.ts"
import { RoleLookup, type RoleWithPermissions } from "../ports/role-lookup.ts"
import { RolePermissionStore } from "../ports/role-permission-store.ts"
import { boundOrganizationOf, permissionsOf } from "./access.ts"
import { expandedPermissions } from "./permission-catalog.ts"
import { permissionsOfRole } from "./permissions-of-role.ts"

/**
 * The ceiling: a caller may change a role, or a member holding it, only when that role holds
 * nothing the caller lacks. The master key (and open local mode) is above every role.
 */
export const requireWithinCeiling = Effect.fnUntraced(function* (actor: Principal, roleId: RoleId) {
  // Stryker disable next-line ConditionalExpression: the check below passes these callers too; this spares the role's read
  if (boundOrganizationOf(actor) === undefined) return
  yield* requireHeldWithinCeiling(actor, yield* permissionsOfRole(roleId))
})

/**
 * The ceiling, for a role whose permissions (`held`) are already in hand: the marker of every
 * permission (the Owner role's) stands for Roster's and every product permission declared now.
 */
export const requireHeldWithinCeiling = Effect.fnUntraced(function* (
  actor: Principal,
  held: ReadonlyArray<PermissionId>
) {
  // Stryker disable next-line ConditionalExpression: a caller of no organisation holds the whole catalog; this spares the comparison
  if (boundOrganizationOf(actor) === undefined) return
  const own = permissionsOf(actor)
  if (isSubsetOf(held, own)) return
  const stands = yield* expandedPermissions(held)
  if (isSubsetOf(stands, own)) return
  return yield* new Forbidden({ reason: "role_exceeds_own", permissionIds: sortedPermissions(stands) })
})

/** Deactivating, demoting, disabling or removing oneself is refused: nobody locks themselves out. */
export const requireNotSelf = (actor: Principal, memberId: MemberId): Effect.Effect<void, Forbidden> =>
  actor._tag === "Member" && actor.member.id === memberId
    ? Effect.fail(new Forbidden({ reason: "self_action" }))
    : Effect.void

/** Deactivating one's own role, or taking a permission from it, is refused like acting on oneself. */
export const requireNotOwnRole = (actor: Principal, roleId: RoleId): Effect.Effect<void, Forbidden> =>
  actor._tag === "Member" && actor.member.roleId === roleId
    ? Effect.fail(new Forbidden({ reason: "own_role" }))
    : Effect.void

/**
 * Whether a role's permissions make its active holders owners: it holds every permission (the
 * marker) or the whole of Roster's catalog. The product's permissions never decide who is one.
 */
export const holdsEverything = (permissionIds: Iterable<PermissionId>): boolean => {
  const held = new Set(permissionIds)
  return held.has(everyPermission) || isSubsetOf(allPermissionIds, held)
}

/** Whether a role, read with its permissions, is an owners' role: active, holding the whole catalog. */
export const isOwnersRole = ({ role, permissionIds }: RoleWithPermissions): boolean =>
  role.activeStatus && holdsEverything(permissionIds)

/** Whether a role is an owners' role: active, and holding every permission of the catalog. */
export const isOwnerRole = (roleId: RoleId) =>
  RoleLookup.use((roles) => roles.find(roleId)).pipe(
    Effect.map(Option.match({ onNone: () => false, onSome: isOwnersRole }))
  )

/** Whether a member is an owner: able to act, in an owners' role. */
export const isOwner = (member: {
  readonly activestatus: boolean
  readonly accountActiveStatus: boolean
  readonly roleId: RoleId
}) => (isActiveMember(member) ? isOwnerRole(member.roleId) : Effect.succeed(false))

/**
 * Refuses a change that would leave no owner where there was one: `losing` names the member, or
 * the role whose holders, stop being owners through it (a role nobody holds takes no owner away).
 * Another active member of another active owners' role must remain. Binds the master key too,
 * which would otherwise leave nobody able to administer the team.
 */
export const requireAnotherOwner = Effect.fnUntraced(function* (losing: {
  readonly memberId?: MemberId
  readonly roleId?: RoleId
}) {
  const members = yield* MemberStore
  const activeHolders = (roleId: RoleId) => members.page({ roleId, active: true }, 2)
  // Stryker disable next-line ConditionalExpression: a member being lost is active, so all active members are never none
  if (losing.roleId !== undefined && (yield* activeHolders(losing.roleId)).length === 0) return
  // Stryker disable next-line ArrayDeclaration: every role would do, as each is checked below; these are the only candidates
  const ownerRoles = yield* (yield* RolePermissionStore).rolesHolding([...allPermissionIds])
  for (const roleId of ownerRoles) {
    if (roleId === losing.roleId || !(yield* isOwnerRole(roleId))) continue
    if ((yield* activeHolders(roleId)).some((holder) => holder.id !== losing.memberId)) return
  }
  return yield* new LastOwner({})
})
