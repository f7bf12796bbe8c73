import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { SessionId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { AuditLog } from "../../ports/audit-log.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { ownAccount } from "../../steps/account/own-account.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

/**
 * Ends one of the signed-in person's sessions, in whichever organisation it acts (the current one
 * too: that is logging out). Another account's session is not found, as one that does not exist.
 */
export const endOwnSession = Effect.fnUntraced(function* (actor: Principal, id: SessionId) {
  const { member } = yield* ownAccount(actor)
  const ended = yield* (yield* SessionStore).revokeById(member.id, id)
  if (Option.isNone(ended)) return yield* new NotFound({ entity: "session", id })
  const entry = yield* newAuditEntry(auditActorOf(actor), "session.revoked", { type: "session", id })
  yield* (yield* AuditLog).record(entry)
  return ended.value
})
