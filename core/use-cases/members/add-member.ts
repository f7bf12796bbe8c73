import { Cause, DateTime, Effect, Exit, Option, Schema } from "effect"
import { NewMember } from "../../model/account.ts"
import { changesBetween } from "../../model/audit.ts"
import { UnknownRole } from "../../model/errors.ts"
import { RoleId } from "../../model/ids.ts"
import { Email, memberAuditFields, normalizeEmail, Password, toMember, Username } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireHeldWithinCeiling } from "../../policy/ceiling.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { auditActorOf, newAuditEntry } from "../audit/new-audit-entry.ts"
import { seatsAfterMemberChange } from "../billing/sync-seats.ts"
import { requireLoginsFree } from "./require-logins-free.ts"

export const AddMemberInput = Schema.Struct({
  username: Username,
  email: Email,
  password: Schema.RedactedFromValue(Password),
  activestatus: Schema.Boolean,
  roleId: RoleId
})
export type AddMemberInput = typeof AddMemberInput.Type

/**
 * The role is claimed as it is read (counted a holder, so that it cannot be deleted under the
 * member), and the claim given back when the member is refused or not written: on a failure, or on
 * an interruption before the member's write began. One interrupted during the write may have been
 * made, so the claim is kept (a count too high is corrected once no member holds the role).
 */
export const addMember = Effect.fnUntraced(function* (actor: Principal, input: AddMemberInput) {
  yield* requirePermission(actor, "team.members.write")
  const role = yield* (yield* RoleLookup).claim(input.roleId)
  if (Option.isNone(role)) return yield* new UnknownRole({ roleId: input.roleId })
  const release = (yield* RoleStore).release(input.roleId)
  let writing = false
  const { record, member } = yield* Effect.gen(function* () {
    yield* requireHeldWithinCeiling(actor, role.value.permissionIds)
    const email = normalizeEmail(input.email)
    yield* requireLoginsFree(email, input.username)
    const record = new NewMember({
      id: yield* (yield* IdGenerator).memberId,
      organizationId: yield* CurrentOrganization,
      username: input.username,
      email,
      passwordHash: yield* (yield* PasswordHasher).hash(input.password),
      activestatus: input.activestatus,
      accountActiveStatus: true,
      sessionEpoch: 0,
      roleId: input.roleId,
      createdAt: yield* DateTime.now
    })
    const member = toMember(record)
    const entry = yield* newAuditEntry(
      auditActorOf(actor),
      "member.added",
      { type: "member", id: member.id },
      changesBetween(null, member, memberAuditFields)
    )
    const members = yield* MemberStore
    writing = true
    yield* members.insert(record, entry)
    return { record, member }
  }).pipe(
    Effect.onExit((exit) =>
      Exit.isFailure(exit) && (!writing || !Cause.hasInterrupts(exit.cause)) ? release : Effect.void
    )
  )
  yield* seatsAfterMemberChange(undefined, record)
  return member
})
