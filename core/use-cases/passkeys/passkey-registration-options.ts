import { DateTime, Duration, Effect, Option, Schema } from "effect"
import { MissingField, PasskeyLimit } from "../../model/errors.ts"
import { maxPasskeys, PasskeyChallenge, passkeyChallengeSeconds } from "../../model/passkey.ts"
import type { Principal } from "../../model/principal.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { WebAuthn } from "../../ports/webauthn.ts"
import { ownAccount } from "../../steps/account/own-account.ts"
import { FactorProof, PasswordProof, proveFactorOwner } from "../../steps/mfa/factor-proof.ts"
import { requirePasskeys } from "../../steps/passkeys/require-passkeys.ts"

/** The password and, while TOTP is on, a code of it; or neither, within five minutes of signing in. */
export const PasskeyOptionsInput = Schema.Struct({
  password: Schema.optionalKey(PasswordProof.fields.password),
  code: FactorProof.fields.code
})
export type PasskeyOptionsInput = typeof PasskeyOptionsInput.Type

/**
 * A sign-in this recent proves its holder as well as the password would. What counts is when the
 * sign-in was proved, never when the session was made: a session made from another (accepting an
 * invitation with it) is as old as that one.
 */
const freshSession = Duration.minutes(5)

/**
 * The signed-in person, proven as one who replaces their TOTP is (the password, and while TOTP is
 * on a code of it: a passkey signs in alone, so the password only would walk around the second
 * factor), or by a session a sign-in made in the last five minutes.
 */
const provenNow = Effect.fnUntraced(function* (actor: Principal, input: PasskeyOptionsInput, client: string) {
  const { member, sessionTokenHash } = yield* ownAccount(actor)
  const { password } = input
  if (password !== undefined) {
    yield* proveFactorOwner(actor, { ...input, password }, client)
    return member
  }
  const session = yield* (yield* SessionStore).find(sessionTokenHash)
  const now = yield* DateTime.now
  const young = Option.exists(session, (found) =>
    DateTime.isLessThan(now, DateTime.addDuration(found.authTime, freshSession))
  )
  if (!young) return yield* new MissingField({ field: "password", purpose: "passkey" })
  return member
})

/**
 * Options to add a passkey to the signed-in person's account (user verification required, its other
 * passkeys excluded), proven by the password (with a code while TOTP is on) or a sign-in in the last
 * five minutes. An account holding as many passkeys as it may is refused here, before any
 * ceremony.
 */
export const passkeyRegistrationOptions = Effect.fnUntraced(function* (
  actor: Principal,
  input: PasskeyOptionsInput,
  client: string
) {
  yield* requirePasskeys
  const member = yield* provenNow(actor, input, client)
  const store = yield* PasskeyStore
  const existing = yield* store.ofAccount(member.id)
  if (existing.length >= maxPasskeys) return yield* new PasskeyLimit({ limit: maxPasskeys })
  const { options, challenge } = yield* (yield* WebAuthn).registrationOptions(
    { id: member.id, name: member.username, displayName: member.email },
    existing
  )
  const now = yield* DateTime.now
  yield* store.putChallenge(
    new PasskeyChallenge({
      ceremony: "registration",
      owner: member.id,
      challenge,
      accountId: member.id,
      organizationId: null,
      createdAt: now,
      expiresAt: DateTime.addDuration(now, Duration.seconds(passkeyChallengeSeconds))
    })
  )
  return options
})
