import { Effect, Option, Schema } from "effect"
import { NotFound } from "../../model/errors.ts"
import { MemberId } from "../../model/ids.ts"
import { toMember } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireAccountNotShared } from "../../policy/account-shared.ts"
import { isOwner, requireAnotherOwner, requireNotSelf, requireWithinCeiling } from "../../policy/ceiling.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { keepSeatsInStep } from "../../steps/billing/sync-seats.ts"

export const SetAccountStatusInput = Schema.Struct({
  memberId: MemberId,
  active: Schema.Boolean
})
export type SetAccountStatusInput = typeof SetAccountStatusInput.Type

/**
 * Enables or disables an account, in every organisation it belongs to; disabling ends every session
 * of it. An organisation's administrator may do so only to an account that is theirs alone.
 */
export const setAccountStatus = Effect.fnUntraced(function* (actor: Principal, input: SetAccountStatusInput) {
  yield* requirePermission(actor, "admin.accounts.write")
  if (!input.active) yield* requireNotSelf(actor, input.memberId)
  const members = yield* MemberStore
  const target = yield* members.findById(input.memberId)
  if (Option.isNone(target)) return yield* new NotFound({ entity: "member", id: input.memberId })
  yield* requireWithinCeiling(actor, target.value.roleId)
  yield* requireAccountNotShared(actor, input.memberId)
  if (!input.active && (yield* isOwner(target.value)))
    yield* requireAnotherOwner({ memberId: input.memberId })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    input.active ? "account.enabled" : "account.disabled",
    { type: "member", id: input.memberId },
    { accountActiveStatus: [target.value.accountActiveStatus, input.active] }
  )
  const updated = yield* members.setAccountStatus(input.memberId, input.active, entry)
  if (Option.isNone(updated)) return yield* new NotFound({ entity: "member", id: input.memberId })
  // The epoch increment already voids the sessions; deleting them just frees the store.
  if (!input.active) yield* (yield* SessionStore).revokeAllOf(input.memberId)
  if (target.value.accountActiveStatus !== input.active) {
    // The account's seats move in every organisation it belongs to.
    for (const { organizationId } of yield* members.membershipsOf(input.memberId)) {
      yield* keepSeatsInStep.pipe(Effect.provideService(CurrentOrganization, organizationId))
    }
  }
  return toMember(updated.value)
})
