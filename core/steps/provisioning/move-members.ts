import { Effect, Option } from "effect"
import { NoDefaultRole } from "../../model/errors.ts"
import type { MemberId, RoleId } from "../../model/ids.ts"
import type { MemberRecord } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { requireWithinCeiling } from "../../policy/ceiling.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { everyMember } from "../members/every-member.ts"
import { updateMember } from "../members/update-member.ts"
import { defaultRole } from "./default-role.ts"

/**
 * Makes `wanted` the holders of `roleId`: a member holds one role, so joining the group moves them
 * into it, and leaving it moves them to the default role. Ids of no member here are left out: the
 * group answered shows who it holds.
 */
export const setGroupMembers = Effect.fnUntraced(function* (
  actor: Principal,
  roleId: RoleId,
  wanted: ReadonlyArray<MemberId>
) {
  const members = yield* MemberStore
  const current = new Set((yield* everyMember({ roleId })).map((member) => member.id))
  const target = new Set(wanted)
  const joining: Array<MemberRecord> = []
  for (const id of target) {
    if (current.has(id)) continue
    const found = yield* members.findById(id)
    if (Option.isSome(found)) joining.push(found.value)
  }
  const leaving = [...current].filter((id) => !target.has(id))
  // Every move is allowed before any is made, so a refused one leaves the group as it was.
  yield* requireWithinCeiling(actor, roleId)
  for (const member of joining) yield* requireWithinCeiling(actor, member.roleId)
  for (const member of joining) yield* updateMember(actor, member.id, { roleId })
  if (leaving.length > 0) yield* moveToDefaultRole(actor, roleId, leaving)
})

/**
 * Moves members out of `roleId` into the default role. The default role's own holders have nowhere
 * else to go: `NoDefaultRole`.
 */
export const moveToDefaultRole = Effect.fnUntraced(function* (
  actor: Principal,
  roleId: RoleId,
  ids: ReadonlyArray<MemberId>
) {
  const fallback = yield* defaultRole
  if (fallback === roleId) return yield* new NoDefaultRole()
  yield* requireWithinCeiling(actor, fallback)
  for (const id of ids) yield* updateMember(actor, id, { roleId: fallback })
})
