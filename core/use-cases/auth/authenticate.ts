import { DateTime, Effect, Option, Redacted } from "effect"
import { looksLikeApiKey } from "../../model/api-key.ts"
import { Forbidden, Unauthenticated } from "../../model/errors.ts"
import { toMember } from "../../model/member.ts"
import { masterPrincipal, openLocalPrincipal, type Principal } from "../../model/principal.ts"
import { canAct } from "../../policy/access.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { SessionLookup } from "../../ports/session-lookup.ts"
import { SessionTokens } from "../../ports/session-tokens.ts"
import { authenticateApiKey } from "../api-keys/authenticate-api-key.ts"

/**
 * Turns the caller's bearer token (or its absence) into a principal with its permissions: the
 * master key, an API key (`rk_`), or else a session.
 */
export const authenticate = Effect.fnUntraced(function* (bearer: Option.Option<Redacted.Redacted<string>>) {
  const { masterKeyHash } = yield* AuthSettings
  if (Option.isNone(bearer)) {
    if (Option.isNone(masterKeyHash)) return openLocalPrincipal
    return yield* new Unauthenticated({ reason: "missing" })
  }
  const tokens = yield* SessionTokens
  const tokenHash = yield* tokens.hashOf(bearer.value)
  if (Option.isSome(masterKeyHash) && (yield* tokens.sameHash(tokenHash, masterKeyHash.value))) {
    return masterPrincipal
  }
  if (looksLikeApiKey(Redacted.value(bearer.value))) return yield* authenticateApiKey(bearer.value)
  const found = yield* (yield* SessionLookup).find(tokenHash)
  if (Option.isNone(found)) return yield* new Unauthenticated({ reason: "invalid" })
  const { session, member, role, permissionIds } = found.value
  const now = yield* DateTime.now
  if (!DateTime.isLessThan(now, session.expiresAt)) return yield* new Unauthenticated({ reason: "expired" })
  if (session.memberEpoch !== member.sessionEpoch) return yield* new Unauthenticated({ reason: "invalid" })
  if (role?.deactivatedAt !== undefined && !DateTime.isGreaterThan(session.createdAt, role.deactivatedAt))
    return yield* new Unauthenticated({ reason: "invalid" })
  if (!canAct(member, role)) return yield* new Forbidden({ reason: "inactive" })
  return {
    _tag: "Member",
    member: toMember(member),
    permissionIds,
    sessionTokenHash: session.tokenHash,
    organizationId: session.organizationId
  } satisfies Principal as Principal
})
