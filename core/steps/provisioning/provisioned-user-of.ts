import { Effect, Option } from "effect"
import { type MemberRecord, toMember } from "../../model/member.ts"
import type { ProvisionedUser, UserProfile } from "../../model/provisioning.ts"
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
