import { DateTime, Effect } from "effect"
import { publishedJwk } from "../../model/signing-key.ts"
import { publishedKeysAt } from "../../policy/signing-keys.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { SigningKeyStore } from "../../ports/signing-key-store.ts"
import { accessTokenLifetime } from "../../steps/tokens/token-settings.ts"

/**
 * The key set verifiers fetch (`/.well-known/jwks.json`): the public part of every key that signs,
 * will sign, or signed tokens that may still be out; read from the store each time, so that a
 * revoked key leaves it at once. Never a private part.
 */
export const publishedSigningKeys = Effect.gen(function* () {
  const keys = yield* (yield* SigningKeyStore).all
  const lifetime = accessTokenLifetime(yield* AuthSettings)
  return { keys: publishedKeysAt(keys, yield* DateTime.now, lifetime).map(publishedJwk) }
})
