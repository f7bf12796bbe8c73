import { Effect, Option, type Redacted } from "effect"
import { Unauthenticated } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { ScimTokenStore } from "../../ports/scim-token-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"

/**
 * The identity provider a SCIM request's bearer token stands for, and its organisation. Only SCIM
 * tokens count here: a session's token or the master key is no SCIM token.
 */
export const authenticateScim = Effect.fnUntraced(function* (
  bearer: Option.Option<Redacted.Redacted<string>>
) {
  if (Option.isNone(bearer)) return yield* new Unauthenticated({ reason: "missing" })
  const tokenHash = yield* (yield* TokenIssuer).hashOf(bearer.value)
  const found = yield* (yield* ScimTokenStore).findByTokenHash(tokenHash)
  if (Option.isNone(found)) return yield* new Unauthenticated({ reason: "invalid" })
  const { id, organizationId, permissionIds } = found.value
  const principal: Principal = { _tag: "Scim", tokenId: id, organizationId, permissionIds }
  return { principal, organizationId }
})
