import { DateTime, Effect, Option, Redacted } from "effect"
import { apiKeyParts } from "../../model/api-key.ts"
import { Unauthenticated } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { noteMinuteOfUse } from "../auth/off-the-path.ts"

const refused = new Unauthenticated({ reason: "invalid" })

/** The earlier of two ends, as the principal carries it; none when neither is set. */
const endOf = (
  expiresAt: DateTime.Utc | null,
  graceEnds: DateTime.Utc | null
): { readonly expiresAt: DateTime.Utc } | undefined => {
  if (expiresAt === null) return graceEnds === null ? undefined : { expiresAt: graceEnds }
  return { expiresAt: graceEnds === null ? expiresAt : DateTime.min(expiresAt, graceEnds) }
}

/**
 * The API key a bearer token is, found by its lookup part and proven by its secret's digest,
 * compared in constant time (the current secret, or the one a rotation replaced while its grace
 * lasts). Unknown, malformed, revoked and expired keys get one answer. The minute of use is
 * written off the request's path, once a minute at most.
 */
export const authenticateApiKey = Effect.fnUntraced(function* (token: Redacted.Redacted<string>) {
  const parts = apiKeyParts(Redacted.value(token))
  if (Option.isNone(parts)) return yield* refused
  const keys = yield* ApiKeyStore
  const found = yield* keys.findByLookup(parts.value.lookup)
  if (Option.isNone(found)) return yield* refused
  const key = found.value
  const tokens = yield* TokenIssuer
  const secretHash = yield* tokens.hashOf(Redacted.make(parts.value.secret))
  const now = yield* DateTime.now
  const current = yield* tokens.sameHash(secretHash, key.secretHash)
  const previous =
    !current &&
    key.previous !== null &&
    DateTime.isLessThan(now, key.previous.until) &&
    (yield* tokens.sameHash(secretHash, key.previous.secretHash))
  if (!current && !previous) return yield* refused
  if (key.expiresAt !== null && !DateTime.isLessThan(now, key.expiresAt)) return yield* refused
  yield* noteMinuteOfUse(key.lastUsedAt, now, (minute) => keys.noteUse(key.id, minute))
  return {
    _tag: "ApiKey",
    keyId: key.id,
    name: key.name,
    organizationId: key.organizationId,
    permissionIds: key.permissions,
    // A secret a rotation replaced works until its grace ends: what it opens ends no later.
    ...(endOf(key.expiresAt, previous && key.previous !== null ? key.previous.until : null) ?? {})
  } satisfies Principal as Principal
})
