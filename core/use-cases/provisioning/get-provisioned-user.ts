import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { type MemberRecord, toMember } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import type { ProvisionedUser, UserProfile } from "../../model/provisioning.ts"
import { requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { RoleStore } from "../../ports/role-store.ts"

/** `member` with its profile, as read, and its role. */
export const provisionedUserOf = Effect.fnUntraced(function* (
  member: MemberRecord,
  profile: Option.Option<UserProfile>
) {
  const role = yield* (yield* RoleStore).findById(member.roleId)
  const user: ProvisionedUser = {
    member: toMember(member),
    profile: Option.getOrUndefined(profile),
    role: Option.getOrUndefined(role)
  }
  return user
})

/** A member as an identity provider sees it: with its profile and its role. */
export const getProvisionedUser = Effect.fnUntraced(function* (actor: Principal, id: MemberId) {
  yield* requirePermission(actor, "team.read")
  const found = yield* (yield* MemberStore).findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "member", id })
  return yield* provisionedUserOf(found.value, yield* (yield* ProvisioningStore).findUser(id))
})
