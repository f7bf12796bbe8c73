import { Effect, Option, Schema } from "effect"
import { type AccountRecord, homeMembership, type Membership } from "../../model/account.ts"
import { Forbidden, InvalidCredentials } from "../../model/errors.ts"
import type { OrganizationId } from "../../model/ids.ts"
import { loginKey } from "../../model/member.ts"
import { OrganizationRef } from "../../model/organization.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { byPassword } from "../../model/session.ts"
import { canAct } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { countAttempt } from "../../steps/auth/count-attempt.ts"
import { recordLoginFailure } from "../../steps/auth/record-login-failure.ts"
import { startSession } from "../../steps/auth/start-session.ts"
import { issueChallenge } from "../../steps/mfa/issue-challenge.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"
import { secondFactorsOf } from "../../steps/passkeys/second-factor-of.ts"
import { requirePasswordAllowed } from "../../steps/sso/require-password-allowed.ts"

export const LogInInput = Schema.Struct({
  /** A username or an e-mail address. */
  username: Schema.String.check(Schema.isBetweenLength(1, 254)),
  password: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256))),
  /** The organisation to act on (its id or slug); the account's oldest active membership when absent. */
  organization: Schema.optionalKey(OrganizationRef),
  /** Who is calling, for throttling (the client address behind the HTTP adapter). */
  client: Schema.String.check(Schema.isMaxLength(256))
})
export type LogInInput = typeof LogInInput.Type

/**
 * The organisation a login acts on: the one it names, when the account is a member there, else the
 * oldest membership that is active (the oldest of all when none is, to be refused as inactive).
 */
const chosenOrganization = Effect.fnUntraced(function* (
  account: Option.Option<AccountRecord>,
  named: string | undefined
) {
  if (Option.isNone(account)) return Option.none<OrganizationId>()
  const memberships = yield* (yield* MemberStore).membershipsOf(account.value.id)
  const pick = (membership: Membership | undefined) => Option.fromNullishOr(membership?.organizationId)
  if (named === undefined) return pick(homeMembership(memberships))
  const organization = yield* (yield* OrganizationStore).findByRef(named)
  return Option.flatMap(organization, ({ id }) => pick(memberships.find((m) => m.organizationId === id)))
})

/**
 * Signs in with a password: a session, or, for an account with a second factor (TOTP, a passkey),
 * a challenge that `verifyMfa` completes with one of the `methods` it names (no session until then).
 * A known account is counted by its id, so switching between its username and its e-mail does not
 * double the allowance (see `countAttempt`). An organisation the account is no member of is
 * the same answer as a wrong password: which organisations an account belongs to is not told to
 * whoever knows its name.
 */
export const logIn = Effect.fnUntraced(function* (input: LogInInput) {
  const found = yield* (yield* MemberStore).findByLogin(input.username)
  const organizationId = yield* chosenOrganization(found, input.organization)
  const accountKey = Option.match(found, {
    onNone: () => `login:${loginKey(input.username)}`,
    onSome: (account) => `member:${account.id}`
  })
  const failure = (action: "login.failed" | "login.throttled") =>
    recordLoginFailure(action, input.username, found, input.client, organizationId)
  const attempt = yield* countAttempt("password", accountKey, input.client).pipe(
    Effect.tapErrorTag("RateLimited", () => failure("login.throttled"))
  )
  const hasher = yield* PasswordHasher
  // An unknown login still spends one hash, so timing does not reveal which accounts exist.
  const verified = yield* Option.match(found, {
    onNone: () => hasher.hash(input.password).pipe(Effect.as(false)),
    onSome: (account) => hasher.verify(account.passwordHash, input.password)
  }).pipe(Effect.tapError(() => attempt.giveBack))
  if (!verified) {
    yield* failure("login.failed")
    return yield* new InvalidCredentials()
  }
  if (Option.isNone(organizationId)) {
    yield* attempt.giveBack
    return yield* new InvalidCredentials()
  }
  const account = Option.getOrThrow(found)
  const signIn = Effect.gen(function* () {
    const member = yield* (yield* MemberStore).findById(account.id)
    if (Option.isNone(member)) return yield* new InvalidCredentials()
    const role = yield* (yield* RoleStore).findById(member.value.roleId)
    if (!canAct(member.value, Option.getOrUndefined(role)))
      return yield* new Forbidden({ reason: "inactive" })
    // A membership left behind by a deleted organisation signs nobody in.
    const organization = yield* currentOrganization.pipe(
      Effect.catchTag("NotFound", () => Effect.fail(new InvalidCredentials()))
    )
    yield* requirePasswordAllowed(member.value, organization).pipe(Effect.tapError(() => attempt.giveBack))
    // Half a success: the account's failures stay counted until its second factor (TOTP or a
    // passkey) is given, so that the right password cannot buy fresh tries at the code.
    const methods = yield* secondFactorsOf(account.id)
    if (methods.length > 0) {
      yield* attempt.giveBack
      return yield* issueChallenge(member.value, organization.id, methods)
    }
    yield* attempt.succeeded
    return yield* startSession(member.value, organization, byPassword)
  })
  return yield* signIn.pipe(Effect.provideService(CurrentOrganization, organizationId.value))
})
