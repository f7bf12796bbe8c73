import { DateTime, Effect, Option, Redacted } from "effect"
import { looksLikeApiKey } from "../../model/api-key.ts"
import { Unauthenticated } from "../../model/errors.ts"
import { toMember } from "../../model/member.ts"
import { masterPrincipal, openLocalPrincipal, type Principal } from "../../model/principal.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { SessionLookup } from "../../ports/session-lookup.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { authenticateApiKey } from "../api-keys/authenticate-api-key.ts"
import { noteMinuteOfUse } from "./off-the-path.ts"
import { sessionRefusal } from "./session-refusal.ts"

/**
 * Turns the caller's bearer token (or its absence) into a principal with its permissions: the
 * master key, an API key (`rk_`), or else a session, whose minute of use is written off the
 * request's path, once a minute at most.
 */
export const authenticate = Effect.fnUntraced(function* (bearer: Option.Option<Redacted.Redacted<string>>) {
  const { masterKeyHash } = yield* AuthSettings
  if (Option.isNone(bearer)) {
    if (Option.isNone(masterKeyHash)) return openLocalPrincipal
    return yield* new Unauthenticated({ reason: "missing" })
  }
  const tokens = yield* TokenIssuer
  const tokenHash = yield* tokens.hashOf(bearer.value)
  if (Option.isSome(masterKeyHash) && (yield* tokens.sameHash(tokenHash, masterKeyHash.value))) {
    return masterPrincipal
  }
  if (looksLikeApiKey(Redacted.value(bearer.value))) return yield* authenticateApiKey(bearer.value)
  const found = yield* (yield* SessionLookup).find(tokenHash)
  if (Option.isNone(found)) return yield* new Unauthenticated({ reason: "invalid" })
  const { session, member, permissionIds } = found.value
  const now = yield* DateTime.now
  const refused = sessionRefusal(found.value, now)
  if (refused !== undefined) return yield* refused
  yield* noteMinuteOfUse(session.lastSeenAt, now, (minute) =>
    SessionStore.use((sessions) => sessions.noteSeen(session.tokenHash, minute))
  )
  return {
    _tag: "Member",
    member: toMember(member),
    permissionIds,
    sessionTokenHash: session.tokenHash,
    organizationId: session.organizationId,
    ...(session.mfaPending ? { mfaPending: true } : {}),
    session: { id: session.id, expiresAt: session.expiresAt, amr: session.amr, authTime: session.authTime }
  } satisfies Principal as Principal
})
