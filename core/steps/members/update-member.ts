import { Effect, Option } from "effect"
import type { AccountChanges, MembershipChanges } from "../../model/account.ts"
import { changesBetween } from "../../model/audit.ts"
import { EditConflict, Forbidden, NotFound, UnknownRole } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import {
  isActiveMember,
  type MemberChanges,
  type MemberRecord,
  memberAuditFields,
  normalizeEmail,
  toMember
} from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireMembershipsHere } from "../../policy/account-shared.ts"
import {
  isOwner,
  isOwnersRole,
  requireAnotherOwner,
  requireHeldWithinCeiling,
  requireNotSelf
} from "../../policy/ceiling.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { tellAddressChanged } from "../account/tell-address-changed.ts"
import { auditActorOf, auditEntryOfChanges } from "../audit/new-audit-entry.ts"
import { seatsAfterMemberChange } from "../billing/sync-seats.ts"

/** The part of a change that is the account's (it shows in every organisation) and the membership's. */
const split = (current: MemberRecord, changes: MemberChanges) => {
  const account: { -readonly [K in keyof AccountChanges]: AccountChanges[K] } = {}
  if (changes.username !== undefined && changes.username !== current.username)
    account.username = changes.username
  const email = changes.email === undefined ? undefined : normalizeEmail(changes.email)
  if (email !== undefined && email !== current.email) {
    account.email = email
    // A new address is not proven by the old one's verification.
    account.emailVerified = false
  }
  const membership: MembershipChanges = {
    ...(changes.activestatus === undefined ? {} : { activestatus: changes.activestatus }),
    ...(changes.roleId === undefined ? {} : { roleId: changes.roleId })
  }
  return { account, membership }
}

/**
 * Changes a member's username, e-mail (no longer verified then), membership flag or role (merge semantics). The username and
 * e-mail are the account's: an organisation's administrator changes them only on an account that is
 * theirs alone. The e-mail is where reset links go, so changing it is an account change like a
 * password: it takes `admin.accounts.write` too, never on oneself (one proves a new address of one's
 * own by a link mailed to it), and the old address is told. The account's part is written (and recorded) before the membership's part: a change of both
 * is two writes, so a membership changed meanwhile by another request (moved, removed, its new role
 * deleted) fails the second after the first took effect, as the audit record shows. Moving a member to
 * another role or deactivating them ends their sessions in the organisation at once. A member cannot
 * deactivate or move themselves, nobody can change a member more privileged than themselves or move
 * one into a role holding more than they do, and the team's last owner stays one.
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
  const lookup = yield* RoleLookup
  // A change that may be the account's reads the account's memberships with the member; no other
  // change needs them.
  const mayChangeAccount = changes.username !== undefined || changes.email !== undefined
  const found = mayChangeAccount
    ? yield* members.findWithMemberships(id)
    : Option.map(yield* members.findById(id), (member) => ({ member, memberships: [] }))
  if (Option.isNone(found)) return yield* new NotFound({ entity: "member", id })
  const current = found.value.member
  const currentRole = yield* lookup.find(current.roleId)
  yield* requireHeldWithinCeiling(
    actor,
    Option.match(currentRole, { onNone: () => [], onSome: (role) => role.permissionIds })
  )
  const newRole = changes.roleId !== current.roleId ? changes.roleId : undefined
  if (newRole !== undefined) {
    // Read before anything is written, so that an unknown role changes nothing; the store still
    // refuses one deleted since.
    const moveTo = yield* lookup.find(newRole)
    if (Option.isNone(moveTo)) return yield* new UnknownRole({ roleId: newRole })
    yield* requireHeldWithinCeiling(actor, moveTo.value.permissionIds)
  }
  const ownerNow = isActiveMember(current) && Option.exists(currentRole, isOwnersRole)
  if (ownerNow && !(yield* isOwner({ ...current, ...changes }))) {
    yield* requireAnotherOwner({ memberId: id })
  }
  const parts = split(current, changes)
  const changesAccount = Object.keys(parts.account).length > 0
  if (changesAccount) yield* requireMembershipsHere(actor, id, found.value.memberships)
  // The address is where reset links go: changing it is taking the account, unless proven by it.
  if (parts.account.email !== undefined) {
    if (actor._tag === "Member" && actor.member.id === id)
      return yield* new Forbidden({ reason: "own_email" })
    yield* requirePermission(actor, "admin.accounts.write")
  }
  const changesMembership = Object.keys(parts.membership).length > 0 || !changesAccount
  const entryOf = (next: object) =>
    auditEntryOfChanges(
      auditActorOf(actor),
      "member.updated",
      { type: "member", id },
      changesBetween(toMember(current), { ...toMember(current), ...next }, memberAuditFields)
    )
  let updated = current
  if (changesAccount) {
    const entry = yield* entryOf(parts.account)
    const renamed = yield* members.updateAccount(id, parts.account, entry)
    if (Option.isNone(renamed)) return yield* new NotFound({ entity: "member", id })
    updated = renamed.value
    if (parts.account.email !== undefined) yield* tellAddressChanged(current.email, renamed.value.email)
  }
  if (changesMembership) {
    const endSessions = newRole !== undefined || changes.activestatus === false
    const entry = yield* entryOf(parts.membership)
    const changed = yield* members.update(id, current.roleId, parts.membership, endSessions, entry)
    // Removed or moved by someone else since it was read: the decision above no longer holds.
    if (Option.isNone(changed)) return yield* new EditConflict({ entity: "member", id })
    // The epoch increment already voids the sessions; deleting them just frees the store.
    if (endSessions) yield* (yield* SessionStore).revokeMembership(id)
    updated = changed.value
  }
  yield* seatsAfterMemberChange(current, updated)
  return toMember(updated)
})
