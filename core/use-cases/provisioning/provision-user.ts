import { DateTime, Effect, Option, type Redacted, Schema } from "effect"
import { DuplicateEmail, DuplicateUsername, MissingField } from "../../model/errors.ts"
import { Email } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { type ProvisionedUserInput, profileOf } from "../../model/provisioning.ts"
import { requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { addMember } from "../../steps/members/add-member.ts"
import { defaultRole } from "../../steps/provisioning/default-role.ts"
import { freeUsername } from "../../steps/provisioning/free-username.ts"

const asEmail = Schema.decodeUnknownOption(Email)

/**
 * Refuses a person whom an account already names, by e-mail or by `userName` (a username or an
 * e-mail of any account, in any organisation): SCIM never links an account, whose owner alone can
 * prove it (through an invitation). Whichever matched, the refusal says nothing of the account.
 */
const requireNoAccountNamed = Effect.fnUntraced(function* (email: string, userName: string) {
  const members = yield* MemberStore
  for (const login of [email, userName]) {
    if (Option.isSome(yield* members.findByLogin(login))) return yield* new DuplicateEmail({ email })
  }
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
 * An identity provider provisions a person: a new account and its member in the organisation's
 * default role, with the provider's profile of them. A person an account already names is refused
 * (see `requireNoAccountNamed`); a new account without a password signs in once an administrator
 * sets one. Through `addMember`, so the ceiling, the audit and the seats hold alike.
 */
export const provisionUser = Effect.fnUntraced(function* (
  actor: Principal,
  input: ProvisionedUserInput,
  password: Option.Option<Redacted.Redacted<string>>
) {
  yield* requirePermission(actor, "team.members.write")
  if (yield* userNameHeld(input.userName)) return yield* new DuplicateUsername({ username: input.userName })
  const email = input.email ?? Option.getOrUndefined(asEmail(input.userName))
  if (email === undefined) return yield* new MissingField({ field: "email", purpose: "new_account" })
  const roleId = yield* defaultRole
  const active = input.active ?? true
  yield* requireNoAccountNamed(email, input.userName)
  const member = yield* addMember(actor, {
    username: yield* freeUsername(input.userName),
    email,
    // Nobody knows this one: the person signs in once an administrator sets a password.
    password: Option.isSome(password)
      ? password.value
      : (yield* (yield* TokenIssuer).issue("password")).token,
    activestatus: active,
    roleId
  })
  yield* (yield* ProvisioningStore).putUser(profileOf(input, member.id, yield* DateTime.now))
  return member
})
