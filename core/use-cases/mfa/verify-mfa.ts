import { DateTime, Effect, Option, Schema } from "effect"
import { tokenStillHolds } from "../../model/account-token.ts"
import { Forbidden, MfaInvalid, MissingField } from "../../model/errors.ts"
import type { MemberId, TokenHash } from "../../model/ids.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { byPasskey, byPasswordAndCode } from "../../model/session.ts"
import { canAct } from "../../policy/access.ts"
import { AccountTokenStore } from "../../ports/account-token-store.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { startSession } from "../../steps/auth/start-session.ts"
import { secondFactorHolds } from "../../steps/mfa/second-factor.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"
import { provePasskey } from "../../steps/passkeys/prove-passkey.ts"

export const VerifyMfaInput = Schema.Struct({
  challenge: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256))),
  /** A code from the authenticator app. */
  code: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 16))),
  /** One of the account's recovery codes, instead of a code. */
  recoveryCode: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 32))),
  /** A passkey's answer (`AuthenticationResponseJSON`) to the options of `POST /auth/mfa/passkey/options`. */
  passkey: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
  /** Who is calling, for throttling (the client address behind the HTTP adapter). */
  client: Schema.String.check(Schema.isMaxLength(256))
})
export type VerifyMfaInput = typeof VerifyMfaInput.Type

/**
 * A login's second step: the challenge and a code (or a recovery code, or a passkey's answer) make
 * the session the password alone did not. Each try counts on the login throttle (see `secondFactorHolds`), and
 * spends one of the challenge's five; the challenge lives five minutes and serves one session.
 * Every way it fails is one answer.
 */
const codeProof = Effect.fnUntraced(function* (typed: string, accountId: MemberId, client: string) {
  const record = Option.getOrUndefined(yield* (yield* MfaStore).find(accountId))
  const holds =
    record !== undefined &&
    (yield* secondFactorHolds(record, typed, { kind: "member", id: accountId }, client))
  return holds ? byPasswordAndCode : undefined
})

/**
 * The passkey's answer to the options asked for this challenge (taken once), from the account's own
 * passkey: what it proves, none when it does not hold.
 */
const passkeyProof = Effect.fnUntraced(function* (
  response: Record<string, unknown>,
  owner: TokenHash,
  accountId: MemberId,
  client: string
) {
  const asked = yield* (yield* PasskeyStore).takeChallenge("second_step", owner)
  if (Option.isNone(asked) || !DateTime.isLessThan(yield* DateTime.now, asked.value.expiresAt))
    return undefined
  return yield* provePasskey(response, asked.value.challenge, accountId, client).pipe(
    Effect.map(({ backedUp }) => byPasskey(backedUp, true)),
    Effect.catchTag("PasskeyRefused", () => Effect.succeed(undefined))
  )
})

export const verifyMfa = Effect.fnUntraced(function* (input: VerifyMfaInput) {
  const typed = input.code ?? input.recoveryCode
  if (typed === undefined && input.passkey === undefined) {
    return yield* new MissingField({ field: "code", purpose: "second_factor" })
  }
  const tokenHash = yield* (yield* TokenIssuer).hashOf(input.challenge)
  const challenges = yield* AccountTokenStore
  const found = yield* challenges.find("mfa_challenge", tokenHash)
  if (Option.isNone(found) || !DateTime.isLessThan(yield* DateTime.now, found.value.expiresAt)) {
    return yield* new MfaInvalid()
  }
  const { accountId, organizationId } = found.value
  return yield* Effect.gen(function* () {
    const proof =
      typed === undefined
        ? yield* passkeyProof(input.passkey ?? {}, tokenHash, accountId, input.client)
        : yield* codeProof(typed, accountId, input.client)
    if (proof === undefined) {
      yield* challenges.spendTry("mfa_challenge", tokenHash)
      return yield* new MfaInvalid()
    }
    if (Option.isNone(yield* challenges.consume("mfa_challenge", tokenHash))) return yield* new MfaInvalid()
    const member = yield* (yield* MemberStore).findById(accountId)
    if (Option.isNone(member)) return yield* new MfaInvalid()
    const role = yield* (yield* RoleStore).findById(member.value.roleId)
    if (!canAct(member.value, Option.getOrUndefined(role)))
      return yield* new Forbidden({ reason: "inactive" })
    // Its password set meanwhile, or its sessions otherwise ended: the challenge went with them.
    if (!tokenStillHolds(found.value, member.value)) return yield* new MfaInvalid()
    return yield* startSession(member.value, yield* currentOrganization, proof)
  }).pipe(
    Effect.catchTag("NotFound", () => Effect.fail(new MfaInvalid())),
    Effect.provideService(CurrentOrganization, organizationId)
  )
})
