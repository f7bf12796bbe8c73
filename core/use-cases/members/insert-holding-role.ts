import { Effect } from "effect"
import type { NewMember } from "../../model/account.ts"
import type { AuditEntry } from "../../model/audit.ts"
import { InvitationInvalid, UnknownRole } from "../../model/errors.ts"
import type { MemberRecord } from "../../model/member.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { RoleStore } from "../../ports/role-store.ts"

/**
 * Writes a new member with the entry that records it. The member is counted as a holder of its role
 * before it is written, so the role cannot be deleted under it; a write that fails gives the count back.
 */
export const insertHoldingRole = Effect.fnUntraced(function* (record: NewMember, entry: AuditEntry) {
  const roles = yield* RoleStore
  if (!(yield* roles.claim(record.roleId))) return yield* new UnknownRole({ roleId: record.roleId })
  yield* (yield* MemberStore).insert(record, entry).pipe(Effect.tapError(() => roles.release(record.roleId)))
})

/**
 * Writes the membership of an existing account, holding its role like `insertHoldingRole`; the
 * account removed meanwhile is `InvitationInvalid`: what it was for is gone.
 */
export const joinHoldingRole = Effect.fnUntraced(function* (member: MemberRecord, entry: AuditEntry) {
  const roles = yield* RoleStore
  if (!(yield* roles.claim(member.roleId))) return yield* new UnknownRole({ roleId: member.roleId })
  const joined = yield* (yield* MemberStore)
    .join(member, entry)
    .pipe(Effect.tapError(() => roles.release(member.roleId)))
  if (!joined) {
    yield* roles.release(member.roleId)
    return yield* new InvitationInvalid()
  }
})
