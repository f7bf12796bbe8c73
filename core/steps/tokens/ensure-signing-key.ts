import { DateTime, Effect } from "effect"
import { SigningKeyStore } from "../../ports/signing-key-store.ts"
import { addSigningKey } from "./new-signing-key.ts"

/**
 * Makes the first signing key when the store has none (at start, or when a token is first asked
 * for): of several instances doing so at once, one key is kept, and each answers the store's keys.
 */
export const ensureSigningKey = Effect.gen(function* () {
  const store = yield* SigningKeyStore
  const keys = yield* store.all
  if (keys.length > 0) return keys
  yield* addSigningKey(1, yield* DateTime.now)
  return yield* store.all
})
