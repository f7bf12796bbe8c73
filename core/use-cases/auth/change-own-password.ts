import { Effect, Option, Schema } from "effect"
import { Forbidden, Unauthenticated, WrongPassword } from "../../model/errors.ts"
import { Password } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { countAttempt } from "../../steps/auth/count-attempt.ts"
import { replacePassword } from "../../steps/members/replace-password.ts"

export const ChangeOwnPasswordInput = Schema.Struct({
  currentPassword: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256))),
  newPassword: Schema.RedactedFromValue(Password)
})
export type ChangeOwnPasswordInput = typeof ChangeOwnPasswordInput.Type

/**
 * A member sets their own password, proving the current one; guesses at it are throttled like
 * logins. Every other session of their account ends, in every organisation; the calling one carries on.
 */
export const changeOwnPassword = Effect.fnUntraced(function* (
  actor: Principal,
  input: ChangeOwnPasswordInput,
  client: string
) {
  if (actor._tag === "ApiKey") return yield* new Forbidden({ reason: "person_only" })
  if (actor._tag !== "Member") return yield* new Forbidden({ reason: "no_password" })
  const found = yield* (yield* MemberStore).findAccount(actor.member.id)
  if (Option.isNone(found)) return yield* new Unauthenticated({ reason: "invalid" })
  const attempt = yield* countAttempt("password", `member:${actor.member.id}`, client)
  const hasher = yield* PasswordHasher
  const verified = yield* hasher
    .verify(found.value.passwordHash, input.currentPassword)
    .pipe(Effect.tapError(() => attempt.giveBack))
  if (!verified) return yield* new WrongPassword()
  const hash = yield* hasher.hash(input.newPassword).pipe(Effect.tapError(() => attempt.giveBack))
  yield* attempt.succeeded
  const kept = actor.sessionTokenHash
  const updated = yield* replacePassword(actor, actor.member.id, hash, "member.password_changed", kept)
  if (Option.isNone(updated)) return yield* new Unauthenticated({ reason: "invalid" })
})
