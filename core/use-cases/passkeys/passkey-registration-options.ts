import { DateTime, Duration, Effect, Option, type Redacted, Schema } from "effect"
import { MissingField, PasskeyLimit } from "../../model/errors.ts"
import { maxPasskeys, PasskeyChallenge, passkeyChallengeSeconds } from "../../model/passkey.ts"
import type { Principal } from "../../model/principal.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { WebAuthn } from "../../ports/webauthn.ts"
import { ownAccount } from "../account/own-account.ts"
import { proveOwnPassword } from "../mfa/prove-own-password.ts"
import { requirePasskeys } from "./require-passkeys.ts"

export const PasskeyOptionsInput = Schema.Struct({
  password: Schema.optionalKey(Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256))))
})
export type PasskeyOptionsInput = typeof PasskeyOptionsInput.Type

/** A session this young proves its holder as well as the password would. */
const freshSession = Duration.minutes(5)

/** The signed-in person, proven by their password, or by a session opened in the last five minutes. */
const provenNow = Effect.fnUntraced(function* (
  actor: Principal,
  password: Redacted.Redacted<string> | undefined,
  client: string
) {
  const { member, sessionTokenHash } = yield* ownAccount(actor)
  if (password !== undefined) {
    yield* proveOwnPassword(member.id, password, client)
    return member
  }
  const session = yield* (yield* SessionStore).find(sessionTokenHash)
  const now = yield* DateTime.now
  const young = Option.exists(session, (found) =>
    DateTime.isLessThan(now, DateTime.addDuration(found.createdAt, freshSession))
  )
  if (!young) return yield* new MissingField({ field: "password", purpose: "passkey" })
  return member
})

/**
 * Options to add a passkey to the signed-in person's account (user verification required, its other
 * passkeys excluded), proven by the password or a session opened in the last five minutes. An
 * account holding as many passkeys as it may is refused here, before any ceremony.
 */
export const passkeyRegistrationOptions = Effect.fnUntraced(function* (
  actor: Principal,
  input: PasskeyOptionsInput,
  client: string
) {
  yield* requirePasskeys
  const member = yield* provenNow(actor, input.password, client)
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
