import { Effect, Option } from "effect"
import type { PermissionId, RoleId } from "../model/ids.ts"
import { isSubsetOf } from "../model/permission-set.ts"
import type { Principal } from "../model/principal.ts"
import type { SsoConnectionRecord } from "../model/sso-connection.ts"
import { SsoRefused } from "../model/sso-errors.ts"
import { MemberStore } from "../ports/member-store.ts"
import { SsoLoginStore } from "../ports/sso-login-store.ts"
import { boundOrganizationOf, permissionsOf } from "./access.ts"
import { holdsEverything, requireWithinCeiling } from "./ceiling.ts"
import { permissionsOfRole } from "./permissions-of-role.ts"

/**
 * A connection is a key to every account linked through it: what the caller who sets what it
 * trusts holds is the most it lets in (`trustCeiling`); none for the operator or an owner.
 */
export const trustCeilingOf = (actor: Principal): ReadonlyArray<PermissionId> | null => {
  const held = permissionsOf(actor)
  return boundOrganizationOf(actor) === undefined || holdsEverything(held)
    ? null
    : [...held].sort((a, b) => a - b)
}

/**
 * Changing what a connection trusts hands its IdP every account linked through it: the caller's
 * permissions must cover the role of each member so linked (the ceiling, as for their password).
 */
export const requireCoversLinked = Effect.fnUntraced(function* (
  actor: Principal,
  connection: SsoConnectionRecord
) {
  if (boundOrganizationOf(actor) === undefined) return
  const members = yield* MemberStore
  const checked = new Set<RoleId>()
  for (const accountId of yield* (yield* SsoLoginStore).linkedAccounts(connection.id)) {
    const member = yield* members.findById(accountId)
    if (Option.isNone(member) || checked.has(member.value.roleId)) continue
    checked.add(member.value.roleId)
    yield* requireWithinCeiling(actor, member.value.roleId)
  }
})

/**
 * A sign-in links a provisioned member, or makes one just in time, only in a role within the
 * connection's `trustCeiling`: an owner provisioned by SCIM is linked only through a connection an
 * owner (or the operator) set up.
 */
export const requireTrusted = Effect.fnUntraced(function* (connection: SsoConnectionRecord, roleId: RoleId) {
  const ceiling = connection.trustCeiling
  if (ceiling === null) return
  if (!isSubsetOf(yield* permissionsOfRole(roleId), new Set(ceiling))) {
    return yield* new SsoRefused({ reason: "above_connection" })
  }
})
