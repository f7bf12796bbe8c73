import { Effect, Option, Schema } from "effect"
import { Forbidden, NotFound } from "../../model/errors.ts"
import { MemberId } from "../../model/ids.ts"
import { toMember } from "../../model/member.ts"
import { isSubsetOf } from "../../model/permission-set.ts"
import type { Principal } from "../../model/principal.ts"
import { permissionsOf, requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { permissionsOfRole } from "../permissions/permissions-of-role.ts"

export const SetAccountStatusInput = Schema.Struct({
  memberId: MemberId,
  active: Schema.Boolean
})
export type SetAccountStatusInput = typeof SetAccountStatusInput.Type

/** Enables or disables an account; disabling revokes every session of that member for good. */
export const setAccountStatus = Effect.fnUntraced(function* (actor: Principal, input: SetAccountStatusInput) {
  yield* requirePermission(actor, "admin.accounts.write")
  if (!input.active && actor._tag === "Member" && actor.member.id === input.memberId) {
    return yield* new Forbidden({ reason: "self_deactivation" })
  }
  const members = yield* MemberStore
  const target = yield* members.findById(input.memberId)
  if (Option.isNone(target)) return yield* new NotFound({ entity: "member", id: input.memberId })
  // Like adding members: nobody may lock out (or let back in) someone more privileged than themselves.
  const targetPermissions = yield* permissionsOfRole(target.value.roleId)
  if (!isSubsetOf(targetPermissions, permissionsOf(actor))) {
    return yield* new Forbidden({ reason: "role_exceeds_own", permissionIds: targetPermissions })
  }
  const updated = yield* members.setAccountStatus(input.memberId, input.active)
  if (Option.isNone(updated)) return yield* new NotFound({ entity: "member", id: input.memberId })
  // The epoch increment already voids the sessions; deleting them just frees the store.
  if (!input.active) yield* (yield* SessionStore).revokeAllOf(input.memberId)
  return toMember(updated.value)
})
