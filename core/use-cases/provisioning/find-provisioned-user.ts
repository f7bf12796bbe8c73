import { Effect, Option } from "effect"
import { usernameKey } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { type ProvisionedUser, provisionedUserNameKey } from "../../model/provisioning.ts"
import { requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { provisionedUserOf } from "../../steps/provisioning/provisioned-user-of.ts"

/**
 * The member an identity provider names by `userName`, if any: the one whose profile holds it, else
 * one without a profile whose username it is. A few indexed reads, where a list would read the whole
 * organisation: providers ask this of every person they sync.
 */
export const findProvisionedUser = Effect.fnUntraced(function* (actor: Principal, userName: string) {
  yield* requirePermission(actor, "team.read")
  const members = yield* MemberStore
  const profiles = yield* ProvisioningStore
  const profile = yield* profiles.findUserByUserName(userName)
  const memberId = Option.isSome(profile)
    ? profile.value.memberId
    : Option.getOrUndefined(
        Option.filter(
          yield* members.findByLogin(userName),
          (account) => usernameKey(account.username) === usernameKey(userName)
        )
      )?.id
  if (memberId === undefined) return Option.none<ProvisionedUser>()
  const member = yield* members.findById(memberId)
  if (Option.isNone(member)) return Option.none<ProvisionedUser>()
  const own = Option.isSome(profile) ? profile : yield* profiles.findUser(memberId)
  if (Option.isSome(own) && provisionedUserNameKey(own.value.userName) !== provisionedUserNameKey(userName)) {
    return Option.none<ProvisionedUser>()
  }
  return Option.some(yield* provisionedUserOf(member.value, own))
})
