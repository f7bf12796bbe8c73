import { DateTime, Effect } from "effect"
import type { AccountRecord } from "../../model/account.ts"
import { changesBetween } from "../../model/audit.ts"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import { MemberRecord, memberAuditFields, toMember } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { requireWithinCeiling } from "../../policy/ceiling.ts"
import { auditActorOf, newAuditEntry, relayAudit } from "../audit/new-audit-entry.ts"
import { seatsAfterMemberChange } from "../billing/sync-seats.ts"
import { joinHoldingRole } from "../members/insert-holding-role.ts"

/**
 * Makes an existing account a member of the organisation, in `roleId`: the identity provider vouches
 * for the person, as an invitation's proof would. `AlreadyMember` when the account is one here.
 */
export const joinAccount = Effect.fnUntraced(function* (
  actor: Principal,
  account: AccountRecord,
  roleId: RoleId,
  activestatus: boolean
) {
  yield* requireWithinCeiling(actor, roleId)
  const record = new MemberRecord(
    {
      id: account.id,
      username: account.username,
      email: account.email,
      activestatus,
      accountActiveStatus: account.accountActiveStatus,
      roleId,
      createdAt: yield* DateTime.now,
      organizationId: yield* CurrentOrganization,
      sessionEpoch: 0
    },
    { disableChecks: true }
  )
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "member.added",
    { type: "member", id: record.id },
    changesBetween(null, toMember(record), memberAuditFields)
  )
  yield* joinHoldingRole(record, entry).pipe(
    // The account was deleted meanwhile: nothing is left to link.
    Effect.catchTag("InvitationInvalid", () =>
      Effect.fail(new NotFound({ entity: "member", id: account.id }))
    )
  )
  yield* relayAudit(entry)
  yield* seatsAfterMemberChange(undefined, record)
  return toMember(record)
})
