import { Effect, Option, Schema } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { Password } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { administeredAccount } from "./administered-account.ts"
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
  yield* administeredAccount(actor, id)
  const hash = yield* (yield* PasswordHasher).hash(input.newPassword)
  const updated = yield* replacePassword(actor, id, hash, "member.password_set")
  if (Option.isNone(updated)) return yield* new NotFound({ entity: "member", id })
})
