import { DateTime, Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { InvitationId } from "../../model/ids.ts"
import { toInvitationView } from "../../model/invitation.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireWithinCeiling } from "../../policy/ceiling.ts"
import { InvitationStore } from "../../ports/invitation-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

/**
 * Revokes a pending invitation: its token is worth nothing from then on. One that is no longer
 * pending is answered as it is, unchanged; one into a role above the caller's ceiling is refused.
 */
export const revokeInvitation = Effect.fnUntraced(function* (actor: Principal, id: InvitationId) {
  yield* requirePermission(actor, "team.members.write")
  const store = yield* InvitationStore
  const found = yield* store.findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "invitation", id })
  yield* requireWithinCeiling(actor, found.value.roleId)
  const now = yield* DateTime.now
  if (found.value.status !== "pending") return toInvitationView(found.value, now)
  const entry = yield* newAuditEntry(auditActorOf(actor), "invitation.revoked", { type: "invitation", id })
  const revoked = yield* store.revoke(id, entry)
  if (Option.isNone(revoked)) {
    // Accepted or revoked meanwhile: what it is now is the answer.
    const current = yield* store.findById(id)
    if (Option.isNone(current)) return yield* new NotFound({ entity: "invitation", id })
    return toInvitationView(current.value, now)
  }
  return toInvitationView(revoked.value, now)
})
