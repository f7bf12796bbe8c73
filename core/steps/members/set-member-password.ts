import { Effect, Option, Schema } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { Password } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireAccountNotShared } from "../../policy/account-shared.ts"
import { requireNotSelf, requireWithinCeiling } from "../../policy/ceiling.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { replacePassword } from "./replace-password.ts"

export const SetMemberPasswordInput = Schema.Struct({
  newPassword: Schema.RedactedFromValue(Password)
})
export type SetMemberPasswordInput = typeof SetMemberPasswordInput.Type

/**
 * An administrator sets another member's password (a forgotten one); every session of that account
 * ends, in every organisation. An organisation's administrator may do so only to an account that is
 * theirs alone. One's own password changes only with the current one (`changeOwnPassword`).
 */
export const setMemberPassword = Effect.fnUntraced(function* (
  actor: Principal,
  id: MemberId,
  input: SetMemberPasswordInput
) {
  yield* requirePermission(actor, "admin.accounts.write")
  yield* requireNotSelf(actor, id)
  const found = yield* (yield* MemberStore).findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "member", id })
  yield* requireWithinCeiling(actor, found.value.roleId)
  yield* requireAccountNotShared(actor, id)
  const hash = yield* (yield* PasswordHasher).hash(input.newPassword)
  const updated = yield* replacePassword(actor, id, hash, "member.password_set")
  if (Option.isNone(updated)) return yield* new NotFound({ entity: "member", id })
})
