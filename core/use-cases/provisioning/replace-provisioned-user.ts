import { DateTime, Effect, Option, type Redacted } from "effect"
import { DuplicateUsername, NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { type MemberChanges, normalizeEmail } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { type ProvisionedUserInput, profileOf, provisionedUserNameKey } from "../../model/provisioning.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireAccountNotShared } from "../../policy/account-shared.ts"
import { requireWithinCeiling } from "../../policy/ceiling.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { setMemberPassword } from "../../steps/members/set-member-password.ts"
import { updateMember } from "../../steps/members/update-member.ts"
import { freeUsername } from "../../steps/provisioning/free-username.ts"

/**
 * An identity provider states what a member is now: the profile is replaced, and what shows in
 * Roster's own fields (username, e-mail, active, password) changes through `updateMember` and
 * `setMemberPassword`, with their rules. Deactivating ends the member's sessions and drops the seat.
 */
export const replaceProvisionedUser = Effect.fnUntraced(function* (
  actor: Principal,
  id: MemberId,
  input: ProvisionedUserInput,
  password: Option.Option<Redacted.Redacted<string>>
) {
  yield* requirePermission(actor, "team.members.write")
  const found = yield* (yield* MemberStore).findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "member", id })
  const member = found.value
  yield* requireWithinCeiling(actor, member.roleId)
  const profiles = yield* ProvisioningStore
  const holder = yield* profiles.findUserByUserName(input.userName)
  if (Option.isSome(holder) && holder.value.memberId !== id) {
    return yield* new DuplicateUsername({ username: input.userName })
  }
  const current = yield* profiles.findUser(id)
  const userNameWas = Option.match(current, { onNone: () => member.username, onSome: (p) => p.userName })
  const changes: { -readonly [K in keyof MemberChanges]: MemberChanges[K] } = {}
  if (provisionedUserNameKey(userNameWas) !== provisionedUserNameKey(input.userName)) {
    changes.username = yield* freeUsername(input.userName, id)
  }
  if (input.email !== undefined && normalizeEmail(input.email) !== member.email) changes.email = input.email
  if (input.active !== undefined && input.active !== member.activestatus) changes.activestatus = input.active
  if (changes.username === member.username) delete changes.username
  // Refused before anything changes: the password is the account's. (The username and e-mail are
  // too: `updateMember` refuses them itself before it writes.)
  if (Option.isSome(password)) yield* requireAccountNotShared(actor, id)
  if (Object.keys(changes).length > 0) yield* updateMember(actor, id, changes)
  if (Option.isSome(password)) yield* setMemberPassword(actor, id, { newPassword: password.value })
  yield* profiles.putUser(profileOf(input, id, yield* DateTime.now))
})
