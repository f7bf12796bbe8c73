import { DateTime, Duration, Effect } from "effect"
import { defaultRotationDelay } from "../../model/signing-key.ts"
import { publishedKeysAt } from "../../policy/signing-keys.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { SigningKeyStore } from "../../ports/signing-key-store.ts"
import { addSigningKey, nextSequence } from "../../steps/tokens/new-signing-key.ts"
import { accessTokenLifetime } from "../../steps/tokens/token-settings.ts"

/**
 * The operator's rotation (`npm run roster -- rotate-signing-key`): a new key, published at once,
 * that every instance signs with `after` from now (by default once cached key sets have learnt it);
 * the keys retired by then (none signs, and their last tokens have expired) are removed. Two
 * rotations at once make two keys, one after the other.
 */
export const rotateSigningKey = Effect.fnUntraced(function* (
  after: Duration.Duration = defaultRotationDelay
) {
  const store = yield* SigningKeyStore
  const now = yield* DateTime.now
  const lifetime = accessTokenLifetime(yield* AuthSettings)
  const signsFrom = DateTime.addDuration(now, Duration.max(after, Duration.zero))
  for (;;) {
    const keys = yield* store.all
    const published = new Set(publishedKeysAt(keys, now, lifetime).map((key) => key.kid))
    const retired = keys.filter((key) => !published.has(key.kid))
    yield* Effect.forEach(retired, (key) => store.remove(key.kid), { discard: true })
    const added = yield* addSigningKey(nextSequence(keys), signsFrom)
    if (added !== undefined) return { key: added, retired: retired.map((key) => key.kid) }
  }
})
