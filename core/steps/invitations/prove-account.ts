import { Effect, Option, type Redacted } from "effect"
import type { AccountRecord } from "../../model/account.ts"
import { Forbidden, InvalidCredentials, MfaInvalid, MissingField } from "../../model/errors.ts"
import { hasTotp } from "../../model/mfa.ts"
import { byPassword, byPasswordAndCode, carriedOver } from "../../model/session.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { authenticate } from "../auth/authenticate.ts"
import { countAttempt } from "../auth/count-attempt.ts"
import { secondFactorHolds } from "../mfa/second-factor.ts"

/**
 * The one accepting an invitation for an existing account proves it is theirs: by a session of that
 * account (another account's is refused; the session passed its second factor already), or by its
 * password, throttled like a login, and, when the account has TOTP, a code: an invitation is no
 * way around the second factor. Answers how (`"session"` or `"password"`: an API key proves no
 * person, so beside one the password is what proves the account) and what the proof was, for the
 * session it makes: a session's own, less single sign-on (another organisation's provider proves
 * nothing in this one).
 */
export const proveAccount = Effect.fnUntraced(function* (
  account: AccountRecord,
  bearer: Option.Option<Redacted.Redacted<string>>,
  password: Redacted.Redacted<string> | undefined,
  client: string,
  code?: string
) {
  if (Option.isSome(bearer)) {
    const caller = yield* authenticate(bearer)
    if (caller._tag === "Member") {
      if (caller.member.id !== account.id) return yield* new Forbidden({ reason: "other_account" })
      const proof =
        caller.session === undefined ? byPassword : carriedOver(caller.session.amr, caller.session.authTime)
      return { by: "session" as const, proof }
    }
  }
  if (password === undefined) return yield* new MissingField({ field: "password", purpose: "account_proof" })
  const attempt = yield* countAttempt("password", `member:${account.id}`, client)
  const verified = yield* (yield* PasswordHasher)
    .verify(account.passwordHash, password)
    .pipe(Effect.tapError(() => attempt.giveBack))
  if (!verified) return yield* new InvalidCredentials()
  // The password's failures only: the code's, if any, stay counted (see `countAttempt`).
  yield* attempt.succeeded
  const mfa = Option.getOrUndefined(yield* (yield* MfaStore).find(account.id))
  if (hasTotp(mfa)) {
    if (code === undefined) return yield* new MissingField({ field: "code", purpose: "account_proof" })
    if (!(yield* secondFactorHolds(mfa, code, { kind: "member", id: account.id }, client))) {
      return yield* new MfaInvalid()
    }
    return { by: "password" as const, proof: byPasswordAndCode }
  }
  return { by: "password" as const, proof: byPassword }
})
