import { DateTime, Duration, Effect, Redacted } from "effect"
import { PasskeyChallenge, passkeyChallengeSeconds } from "../../model/passkey.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { WebAuthn } from "../../ports/webauthn.ts"
import { requirePasskeys } from "./require-passkeys.ts"

/**
 * Options to sign in with any passkey of this deployment (discoverable credentials, user
 * verification required), and the id of their challenge, which the response comes back with.
 */
export const passkeySignInOptions = Effect.gen(function* () {
  yield* requirePasskeys
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
