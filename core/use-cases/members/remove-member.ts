import { Effect, Option } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { Forbidden, NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { isActiveMember, memberAuditFields, toMember } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { auditActorOf, newAuditEntry, relayAudit } from "../audit/new-audit-entry.ts"
import { keepSeatsInStep } from "../billing/sync-seats.ts"
import { requireWithinOwn } from "../permissions/within-own.ts"

/** Removes a member and ends their sessions; nobody removes themselves or someone more privileged. */
export const removeMember = Effect.fnUntraced(function* (actor: Principal, id: MemberId) {
  yield* requirePermission(actor, "team.members.write")
  if (actor._tag === "Member" && actor.member.id === id)
    return yield* new Forbidden({ reason: "self_removal" })
  const members = yield* MemberStore
  const found = yield* members.findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "member", id })
  yield* requireWithinOwn(actor, found.value.roleId)
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "member.removed",
    { type: "member", id },
    changesBetween(toMember(found.value), null, memberAuditFields)
  )
  const removed = yield* members.remove(id, entry)
  if (Option.isNone(removed)) return yield* new NotFound({ entity: "member", id })
  yield* relayAudit(entry)
  yield* (yield* RoleStore).release(removed.value.roleId)
  yield* (yield* SessionStore).revokeAllOf(id)
  // Stryker disable next-line ConditionalExpression: only spares a read; syncing seats that did not move changes and calls nothing
  if (isActiveMember(removed.value)) yield* keepSeatsInStep
  return toMember(removed.value)
})
