import { Effect, Option } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { memberAuditFields, toMember } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { isOwner, requireAnotherOwner, requireNotSelf, requireWithinCeiling } from "../../policy/ceiling.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { auditActorOf, newAuditEntry } from "../audit/new-audit-entry.ts"
import { seatsAfterMemberChange } from "../billing/sync-seats.ts"

/**
 * Removes a member from the organisation and ends their sessions there; an account left with no
 * membership is deleted with it. Nobody removes themselves, someone more privileged, or the team's
 * last owner.
 */
export const removeMember = Effect.fnUntraced(function* (actor: Principal, id: MemberId) {
  yield* requirePermission(actor, "team.members.write")
  yield* requireNotSelf(actor, id)
  const members = yield* MemberStore
  const found = yield* members.findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "member", id })
  yield* requireWithinCeiling(actor, found.value.roleId)
  if (yield* isOwner(found.value)) yield* requireAnotherOwner({ memberId: id })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "member.removed",
    { type: "member", id },
    changesBetween(toMember(found.value), null, memberAuditFields)
  )
  const removed = yield* members.remove(id, entry)
  if (Option.isNone(removed)) return yield* new NotFound({ entity: "member", id })
  yield* (yield* SessionStore).revokeMembership(id)
  yield* seatsAfterMemberChange(removed.value, undefined)
  return toMember(removed.value)
})
