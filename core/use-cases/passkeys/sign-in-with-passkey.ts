import { DateTime, Effect, Option, Redacted } from "effect"
import { homeMembership } from "../../model/account.ts"
import { assembled } from "../../model/assembled.ts"
import { AuditEntry } from "../../model/audit.ts"
import { InvalidCredentials } from "../../model/errors.ts"
import type { PasskeySignInInput } from "../../model/passkey.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { byPasskey } from "../../model/session.ts"
import { canAct } from "../../policy/access.ts"
import { AuditLog } from "../../ports/audit-log.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { startSession } from "../../steps/auth/start-session.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"
import { provePasskey } from "../../steps/passkeys/prove-passkey.ts"
import { requirePasskeys } from "../../steps/passkeys/require-passkeys.ts"
import { requirePasswordAllowed } from "../../steps/sso/require-password-allowed.ts"

/**
 * Signs in with a passkey alone: no username, no password. The response to a sign-in's options
 * (their challenge used once, within five minutes) names its account by its user handle; verified,
 * it signs the account in to its oldest active membership's organisation. A passkey with user
 * verification is two factors: no TOTP is asked, and it meets a requirement of a second factor.
 * Every way it fails is the one answer of a wrong password, a disabled account's too. Recorded as `auth.login` by passkey.
 */
export const signInWithPasskey = Effect.fnUntraced(function* (
  input: PasskeySignInInput & { readonly client: string }
) {
  yield* requirePasskeys
  const owner = yield* (yield* TokenIssuer).hashOf(Redacted.make(input.challengeId))
  const challenge = yield* (yield* PasskeyStore).takeChallenge("sign_in", owner)
  if (Option.isNone(challenge) || !DateTime.isLessThan(yield* DateTime.now, challenge.value.expiresAt)) {
    return yield* new InvalidCredentials()
  }
  const { accountId, backedUp } = yield* provePasskey(
    input.response,
    challenge.value.challenge,
    undefined,
    input.client
  ).pipe(Effect.catchTag("PasskeyRefused", () => Effect.fail(new InvalidCredentials())))
  const members = yield* MemberStore
  const home = homeMembership(yield* members.membershipsOf(accountId))
  if (home === undefined) return yield* new InvalidCredentials()
  return yield* Effect.gen(function* () {
    const member = yield* members.findById(accountId)
    if (Option.isNone(member)) return yield* new InvalidCredentials()
    const role = yield* (yield* RoleStore).findById(member.value.roleId)
    // A disabled account or an inactive membership: the one answer of a wrong password.
    if (!canAct(member.value, Option.getOrUndefined(role))) return yield* new InvalidCredentials()
    const organization = yield* currentOrganization.pipe(
      Effect.catchTag("NotFound", () => Effect.fail(new InvalidCredentials()))
    )
    // An organisation holding its domain's members to single sign-on holds them from passkeys too.
    yield* requirePasswordAllowed(member.value, organization)
    const entry = yield* newAuditEntry({ kind: "member", id: accountId }, "auth.login", {
      type: "member",
      id: accountId
    })
    yield* (yield* AuditLog).record(assembled(AuditEntry, { ...entry, method: "passkey" }))
    return yield* startSession(member.value, organization, byPasskey(backedUp, false), { twoFactors: true })
  }).pipe(Effect.provideService(CurrentOrganization, home.organizationId))
})
