import { Effect, Option } from "effect"
import type { MemberId, TokenHash } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { auditActorOf, newAuditEntry } from "../audit/new-audit-entry.ts"

/**
 * Stores an account's new password hash with its audit entry, then ends the account's sessions in
 * every organisation: a password someone else may know must not leave a way in open. The session
 * `kept` (the caller changing their own) carries on, moved to the account's new session epoch.
 * Answers the account as written, or none when it went meanwhile (and then no session is touched).
 */
export const replacePassword = Effect.fnUntraced(function* (
  actor: Principal,
  id: MemberId,
  hash: string,
  action: "member.password_set" | "member.password_changed",
  kept?: TokenHash
) {
  const entry = yield* newAuditEntry(auditActorOf(actor), action, { type: "member", id })
  const updated = yield* (yield* MemberStore).setPassword(id, hash, entry)
  if (Option.isNone(updated)) return updated
  const sessions = yield* SessionStore
  if (kept !== undefined) yield* sessions.carryOver(kept, updated.value.sessionEpoch)
  yield* sessions.revokeAllOf(id, kept)
  return updated
})
