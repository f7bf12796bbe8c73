import { DateTime, Duration, Effect, Option, type Redacted } from "effect"
import { MfaInvalid } from "../../model/errors.ts"
import { PasskeyChallenge, passkeyChallengeSeconds } from "../../model/passkey.ts"
import { AccountTokenStore } from "../../ports/account-token-store.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { WebAuthn } from "../../ports/webauthn.ts"
import { requirePasskeys } from "../../steps/passkeys/require-passkeys.ts"
import { usablePasskeys } from "../../steps/passkeys/second-factor-of.ts"

/**
 * Options for answering a password login's challenge with a passkey: the account's passkeys in
 * `allowCredentials`. A challenge that is not one, has expired, or whose account has no passkey is
 * the one answer of a wrong code.
 */
export const secondStepPasskeyOptions = Effect.fnUntraced(function* (challenge: Redacted.Redacted<string>) {
  yield* requirePasskeys
  const owner = yield* (yield* TokenIssuer).hashOf(challenge)
  const found = yield* (yield* AccountTokenStore).find("mfa_challenge", owner)
  const now = yield* DateTime.now
  if (Option.isNone(found) || !DateTime.isLessThan(now, found.value.expiresAt)) return yield* new MfaInvalid()
  const passkeys = yield* usablePasskeys(found.value.accountId)
  if (passkeys.length === 0) return yield* new MfaInvalid()
  const { options, challenge: nonce } = yield* (yield* WebAuthn).authenticationOptions(passkeys)
  yield* (yield* PasskeyStore).putChallenge(
    new PasskeyChallenge({
      ceremony: "second_step",
      owner,
      challenge: nonce,
      accountId: found.value.accountId,
      organizationId: found.value.organizationId,
      createdAt: now,
      expiresAt: DateTime.addDuration(now, Duration.seconds(passkeyChallengeSeconds))
    })
  )
  return options
})
