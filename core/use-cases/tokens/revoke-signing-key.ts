import { DateTime, Effect } from "effect"
import { NotFound } from "../../model/errors.ts"
import { SigningKeyStore } from "../../ports/signing-key-store.ts"
import { addSigningKey, nextSequence } from "../../steps/tokens/new-signing-key.ts"

/**
 * Removes a key at once (`rotate-signing-key --revoke KID`, for a leaked key): its tokens fail as
 * soon as verifiers fetch the key set again. When no key is left, a new one signs at once.
 */
export const revokeSigningKey = Effect.fnUntraced(function* (kid: string) {
  const store = yield* SigningKeyStore
  if (!(yield* store.remove(kid))) return yield* new NotFound({ entity: "signing_key", id: kid })
  for (;;) {
    const left = yield* store.all
    if (left.length > 0) return { revoked: kid, replacedBy: undefined }
    const added = yield* addSigningKey(nextSequence(left), yield* DateTime.now)
    if (added !== undefined) return { revoked: kid, replacedBy: added.kid }
  }
})
