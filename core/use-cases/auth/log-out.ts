import { Effect } from "effect"
import { Forbidden } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { AuditLog } from "../../ports/audit-log.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

/**
 * Revokes the caller's own session, recorded as `session.revoked` (which products holding its
 * access tokens hear); master-key and open-mode callers have none to revoke. An API key is refused:
 * logging out would not end it, and its holder must not think it did.
 */
export const logOut = Effect.fnUntraced(function* (actor: Principal) {
  if (actor._tag === "ApiKey") return yield* new Forbidden({ reason: "person_only" })
  if (actor._tag !== "Member") return { revoked: false }
  const revoked = yield* (yield* SessionStore).revoke(actor.sessionTokenHash)
  if (revoked && actor.session !== undefined) {
    const entry = yield* newAuditEntry(auditActorOf(actor), "session.revoked", {
      type: "session",
      id: actor.session.id
    })
    yield* (yield* AuditLog).record(entry)
  }
  return { revoked }
})
