import { DateTime, Effect, Option, type Redacted, Schema } from "effect"
import { DuplicateUsername, MissingField } from "../../model/errors.ts"
import { Email, Username } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { type ProvisionedUserInput, profileOf } from "../../model/provisioning.ts"
import { requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { SessionTokens } from "../../ports/session-tokens.ts"
import { addMember } from "../members/add-member.ts"
import { defaultRole } from "./default-role.ts"
import { freeUsername } from "./free-username.ts"
import { joinAccount } from "./join-account.ts"

const asEmail = Schema.decodeUnknownOption(Email)
const isUsername = Schema.is(Username)

/** The account the person already has, found by e-mail, else by a `userName` that is a username. */
const existingAccount = Effect.fnUntraced(function* (email: string, userName: string) {
  const members = yield* MemberStore
  const byEmail = yield* members.findByLogin(email)
  if (Option.isSome(byEmail) || !isUsername(userName)) return byEmail
  return yield* members.findByLogin(userName)
})

/** The `userName` is held here: by a member's profile, its member still here. Stale profiles go. */
const userNameHeld = Effect.fnUntraced(function* (userName: string) {
  const profiles = yield* ProvisioningStore
  const held = yield* profiles.findUserByUserName(userName)
  if (Option.isNone(held)) return false
  if (Option.isSome(yield* (yield* MemberStore).findById(held.value.memberId))) return true
  yield* profiles.removeUser(held.value.memberId)
  return false
})

/**
 * An identity provider provisions a person: a member in the organisation's default role, with the
 * provider's profile of them. An account that already has the e-mail (or the username) is linked,
 * the provider vouching for the person; a new account without a password signs in once an
 * administrator sets one. Through `addMember`, so the ceiling, the audit and the seats hold alike.
 */
export const provisionUser = Effect.fnUntraced(function* (
  actor: Principal,
  input: ProvisionedUserInput,
  password: Option.Option<Redacted.Redacted<string>>
) {
  yield* requirePermission(actor, "team.members.write")
  if (yield* userNameHeld(input.userName)) return yield* new DuplicateUsername({ username: input.userName })
  const email = input.email ?? Option.getOrUndefined(asEmail(input.userName))
  if (email === undefined) return yield* new MissingField({ field: "email" })
  const roleId = yield* defaultRole
  const active = input.active ?? true
  const account = yield* existingAccount(email, input.userName)
  const member = Option.isSome(account)
    ? yield* joinAccount(actor, account.value, roleId, active)
    : yield* addMember(actor, {
        username: yield* freeUsername(input.userName),
        email,
        // Nobody knows this one: the person signs in once an administrator sets a password.
        password: Option.isSome(password) ? password.value : (yield* (yield* SessionTokens).issue).token,
        activestatus: active,
        roleId
      })
  yield* (yield* ProvisioningStore).putUser(profileOf(input, member.id, yield* DateTime.now))
  return member
})
