import { Effect, Option } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { EditConflict, NotFound, UnknownRole } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { type MemberChanges, memberAuditFields, normalizeEmail, toMember } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { isOwner, requireAnotherOwner, requireNotSelf, requireWithinCeiling } from "../../policy/ceiling.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { auditActorOf, auditEntryOfChanges, relayAudit } from "../audit/new-audit-entry.ts"
import { seatsAfterMemberChange } from "../billing/sync-seats.ts"

/**
 * Changes a member's username, e-mail, membership flag or role (merge semantics). Moving a member to
 * another role or deactivating them ends their sessions at once. A member cannot deactivate or
 * move themselves, nobody can change a member more privileged than themselves or move one into a
 * role holding more than they do, and the team's last owner stays one.
 */
export const updateMember = Effect.fnUntraced(function* (
  actor: Principal,
  id: MemberId,
  changes: MemberChanges
) {
  yield* requirePermission(actor, "team.members.write")
  if (changes.activestatus === false || changes.roleId !== undefined) {
    const movesOwnRole = actor._tag === "Member" && changes.roleId !== actor.member.roleId
    if (changes.activestatus === false || movesOwnRole) yield* requireNotSelf(actor, id)
  }
  const members = yield* MemberStore
  const roles = yield* RoleStore
  const found = yield* members.findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "member", id })
  const current = found.value
  yield* requireWithinCeiling(actor, current.roleId)
  const newRole = changes.roleId !== current.roleId ? changes.roleId : undefined
  if (newRole !== undefined) yield* requireWithinCeiling(actor, newRole)
  if ((yield* isOwner(current)) && !(yield* isOwner({ ...current, ...changes }))) {
    yield* requireAnotherOwner({ memberId: id })
  }
  if (newRole !== undefined) {
    // Counted before the move, so the new role cannot be deleted under the member; false when unknown.
    if (!(yield* roles.claim(newRole))) return yield* new UnknownRole({ roleId: newRole })
  }
  const endSessions = newRole !== undefined || changes.activestatus === false
  const normalized =
    changes.email === undefined ? changes : { ...changes, email: normalizeEmail(changes.email) }
  const recorded = changesBetween(
    toMember(current),
    { ...toMember(current), ...normalized },
    memberAuditFields
  )
  const entry = yield* auditEntryOfChanges(
    auditActorOf(actor),
    "member.updated",
    { type: "member", id },
    recorded
  )
  // The claim on the new role is given back when the member does not end up in it.
  const unclaim = newRole === undefined ? Effect.void : roles.release(newRole)
  const updated = yield* members
    .update(id, current.roleId, normalized, endSessions, entry)
    .pipe(Effect.tapError(() => unclaim))
  if (Option.isNone(updated)) {
    yield* unclaim
    // Removed or moved by someone else since it was read: the decision above no longer holds.
    return yield* new EditConflict({ entity: "member", id })
  }
  yield* relayAudit(entry)
  if (newRole !== undefined) yield* roles.release(current.roleId)
  // The epoch increment already voids the sessions; deleting them just frees the store.
  if (endSessions) yield* (yield* SessionStore).revokeAllOf(id)
  yield* seatsAfterMemberChange(current, updated.value)
  return toMember(updated.value)
})
