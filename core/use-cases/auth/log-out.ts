import { Effect } from "effect"
import type { Principal } from "../../model/principal.ts"
import { SessionStore } from "../../ports/session-store.ts"

/** Revokes the caller's own session; master-key and open-mode callers have none to revoke. */
export const logOut = Effect.fnUntraced(function* (actor: Principal) {
  if (actor._tag !== "Member") return { revoked: false }
  return { revoked: yield* (yield* SessionStore).revoke(actor.sessionTokenHash) }
})
