import { DateTime, Effect, Option, type Redacted } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { DuplicateEmail, DuplicateUsername } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import { holdsLogin, MemberRecord, memberAuditFields, normalizeEmail, toMember } from "../../model/member.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { seatsAfterMemberChange } from "../../steps/billing/sync-seats.ts"
import { newOwnerAccount } from "../../steps/members/new-owner-account.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"
import { grantEveryPermission, insertOwnerRole } from "../../steps/organizations/owner-role.ts"

export interface OwnerInput {
  readonly username: string
  readonly email: string
  readonly password: Redacted.Redacted<string>
}

/** What `ensureOwner` did to the person: nothing when they were an owner already. */
export type OwnerOutcome = "created" | "joined" | "moved" | "unchanged"

const operator = { kind: "master" as const }

/**
 * The current organisation's Owner role: the one it records by id, else a new one, recorded. The
 * default organisation has none until an operator asks for it.
 */
const ownerRoleOf = Effect.gen(function* () {
  const organization = yield* currentOrganization
  const recorded = organization.ownerRoleId
  if (recorded !== undefined && Option.isSome(yield* (yield* RoleStore).findById(recorded))) return recorded
  const role = yield* insertOwnerRole
  yield* (yield* OrganizationStore).recordOwnerRole(organization.id, role.id)
  return role.id
})

/** The person as a new account, a member in the Owner role. */
const insertOwner = Effect.fnUntraced(function* (input: OwnerInput, email: string, roleId: RoleId) {
  const record = yield* newOwnerAccount({
    id: yield* (yield* IdGenerator).next("member"),
    organizationId: yield* CurrentOrganization,
    username: input.username,
    email,
    password: input.password,
    roleId,
    createdAt: yield* DateTime.now
  })
  const entry = yield* newAuditEntry(
    operator,
    "member.added",
    { type: "member", id: record.id },
    changesBetween(null, toMember(record), memberAuditFields)
  )
  yield* (yield* MemberStore).insert(record, entry)
  yield* seatsAfterMemberChange(undefined, record)
  return toMember(record)
})

/**
 * The person settled into the Owner role, or `undefined` when someone changed the member between
 * the read and the write, and what is there now must be decided again.
 */
const settleOwner = Effect.fnUntraced(function* (input: OwnerInput) {
  const roleId = yield* ownerRoleOf
  yield* grantEveryPermission(roleId)
  const email = normalizeEmail(input.email)
  const members = yield* MemberStore
  const holders = yield* members.findByLogins([email, input.username])
  const byEmail = holders.find((account) => holdsLogin(account, email))
  const byUsername = holders.find((account) => holdsLogin(account, input.username))
  if (byEmail === undefined && byUsername === undefined)
    return { roleId, member: yield* insertOwner(input, email, roleId), outcome: "created" as OwnerOutcome }
  // The username's account has another e-mail, or the e-mail's account another username.
  if (byEmail === undefined) return yield* new DuplicateUsername({ username: input.username })
  if (byEmail.id !== byUsername?.id) return yield* new DuplicateEmail({ email })
  const account = byEmail
  const current = yield* members.findById(account.id)
  if (Option.isSome(current)) {
    if (current.value.roleId === roleId)
      return { roleId, member: toMember(current.value), outcome: "unchanged" as OwnerOutcome }
    const change = changesBetween(
      toMember(current.value),
      { ...toMember(current.value), roleId },
      memberAuditFields
    )
    const entry = yield* newAuditEntry(operator, "member.updated", { type: "member", id: account.id }, change)
    const moved = yield* members.update(account.id, current.value.roleId, { roleId }, true, entry)
    // Someone changed the member between the read and the write: decide again on what is there now.
    if (Option.isNone(moved)) return undefined
    yield* seatsAfterMemberChange(current.value, moved.value)
    return { roleId, member: toMember(moved.value), outcome: "moved" as OwnerOutcome }
  }
  const joining = new MemberRecord({
    id: account.id,
    organizationId: yield* CurrentOrganization,
    username: account.username,
    email: account.email,
    emailVerified: account.emailVerified,
    accountActiveStatus: account.accountActiveStatus,
    activestatus: true,
    roleId,
    createdAt: yield* DateTime.now,
    sessionEpoch: 0
  })
  const entry = yield* newAuditEntry(
    operator,
    "member.added",
    { type: "member", id: account.id },
    changesBetween(null, toMember(joining), memberAuditFields)
  )
  yield* members.join(joining, entry)
  yield* seatsAfterMemberChange(undefined, joining)
  return { roleId, member: toMember(joining), outcome: "joined" as OwnerOutcome }
})

/**
 * Makes, idempotently, the organisation's Owner role (recorded by id, holding the whole catalog) and
 * the person a member in it: a new account, the existing account whose username and e-mail these
 * are (its password stays as it is), or that member moved into the role. Run by the operator; a
 * username and an e-mail held by two different accounts are refused.
 */
export const ensureOwner = Effect.fnUntraced(function* (input: OwnerInput) {
  for (;;) {
    const settled = yield* settleOwner(input)
    if (settled !== undefined) return settled
  }
})
