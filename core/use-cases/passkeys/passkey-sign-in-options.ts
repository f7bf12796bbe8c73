import { DateTime, Duration, Effect, Redacted } from "effect"
import { PasskeyChallenge, passkeyChallengeSeconds } from "../../model/passkey.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { WebAuthn } from "../../ports/webauthn.ts"
import { countSignInStart } from "../../steps/auth/count-sign-in-start.ts"
import { requirePasskeys } from "../../steps/passkeys/require-passkeys.ts"

/**
 * Options to sign in with any passkey of this deployment (discoverable credentials, user
 * verification required), and the id of their challenge, which the response comes back with.
 * Each asked for writes a challenge: `client` may ask only so many per window (429).
 */
export const passkeySignInOptions = Effect.fnUntraced(function* (client: string) {
  yield* requirePasskeys
  yield* countSignInStart("passkey_options", client)
  const { token, hash } = yield* (yield* TokenIssuer).issue("challenge")
  const { options, challenge } = yield* (yield* WebAuthn).authenticationOptions(undefined)
  const now = yield* DateTime.now
  yield* (yield* PasskeyStore).putChallenge(
    new PasskeyChallenge({
      ceremony: "sign_in",
      owner: hash,
      challenge,
      accountId: null,
      organizationId: null,
      createdAt: now,
      expiresAt: DateTime.addDuration(now, Duration.seconds(passkeyChallengeSeconds))
    })
  )
  return { challengeId: Redacted.value(token), options }
})
