import { Effect, Option, type Redacted } from "effect"
import { Unauthenticated, WrongPassword } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { countAttempt } from "../auth/count-attempt.ts"

/**
 * The signed-in person proves their password again before changing their second factor; guesses
 * are throttled like logins. Answers the account.
 */
export const proveOwnPassword = Effect.fnUntraced(function* (
  accountId: MemberId,
  password: Redacted.Redacted<string>,
  client: string
) {
  const found = yield* (yield* MemberStore).findAccount(accountId)
  if (Option.isNone(found)) return yield* new Unauthenticated({ reason: "invalid" })
  const attempt = yield* countAttempt("password", `member:${accountId}`, client)
  const verified = yield* (yield* PasswordHasher)
    .verify(found.value.passwordHash, password)
    .pipe(Effect.tapError(() => attempt.giveBack))
  if (!verified) return yield* new WrongPassword()
  yield* attempt.succeeded
  return found.value
})
