import { DateTime, Effect, Option, Schema } from "effect"
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
 * Adds a member in a role the caller's ceiling covers. The store writes the member only while the
 * role is there, and holds the role against its deletion from that write on.
 */
export const addMember = Effect.fnUntraced(function* (actor: Principal, input: AddMemberInput) {
  yield* requirePermission(actor, "team.members.write")
  const role = yield* (yield* RoleLookup).find(input.roleId)
  if (Option.isNone(role)) return yield* new UnknownRole({ roleId: input.roleId })
  yield* requireHeldWithinCeiling(actor, role.value.permissionIds)
  const email = normalizeEmail(input.email)
  yield* requireLoginsFree(email, input.username)
  const record = new NewMember({
    id: yield* (yield* IdGenerator).next("member"),
    organizationId: yield* CurrentOrganization,
    username: input.username,
    email,
    emailVerified: false,
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
  yield* (yield* MemberStore).insert(record, entry)
  yield* seatsAfterMemberChange(undefined, record)
  return member
})
