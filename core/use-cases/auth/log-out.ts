import { Effect } from "effect"
import { Forbidden } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { SessionStore } from "../../ports/session-store.ts"

/**
 * Revokes the caller's own session; master-key and open-mode callers have none to revoke. An API key
 * is refused: logging out would not end it, and its holder must not think it did.
 */
export const logOut = Effect.fnUntraced(function* (actor: Principal) {
  if (actor._tag === "ApiKey") return yield* new Forbidden({ reason: "person_only" })
  if (actor._tag !== "Member") return { revoked: false }
  return { revoked: yield* (yield* SessionStore).revoke(actor.sessionTokenHash) }
})
