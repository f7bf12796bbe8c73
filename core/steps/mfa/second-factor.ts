import { DateTime, Effect, Option } from "effect"
import type { AuditActor } from "../../model/audit.ts"
import type { MemberId } from "../../model/ids.ts"
import type { MfaRecord } from "../../model/mfa.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { RecoveryCodes } from "../../ports/recovery-codes.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { Totp } from "../../ports/totp.ts"
import { newAuditEntry } from "../audit/new-audit-entry.ts"
import { countAttempt } from "../auth/count-attempt.ts"

/** A code from the authenticator app: six digits, spaces allowed as apps show them. */
const totpCode = (typed: string) => {
  const digits = typed.replace(/\s/gu, "")
  // Stryker disable next-line Regex: a longer run of digits is no app's code, nor any recovery code, either way
  return /^\d{6}$/u.test(digits) ? digits : undefined
}

/** Whether `typed` is the factor's code now or one of its unused recovery codes, using it up. */
const holds = Effect.fnUntraced(function* (record: MfaRecord, typed: string, actor: AuditActor) {
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: every caller holds the factor on already; a pending one proves nothing
  if (record.secret === null) return false
  const store = yield* MfaStore
  const accountId: MemberId = record.accountId
  const secret = yield* (yield* SecretBox).open(record.secret)
  const code = totpCode(typed)
  if (code !== undefined) {
    const step = yield* (yield* Totp).stepOf(secret, code, yield* DateTime.now)
    return Option.isSome(step) && (yield* store.takeStep(accountId, step.value))
  }
  const digest = yield* (yield* RecoveryCodes).digestOf(secret, typed)
  const entry = yield* newAuditEntry(actor, "mfa.recovery_code_used", { type: "member", id: accountId })
  return yield* store.useRecoveryCode(accountId, digest, entry)
})

/**
 * Whether `typed` is the account's second factor now, using it up: a TOTP code of a time step not
 * taken before (the step is taken), or one of its unused recovery codes (used once, recorded). A
 * code of the wrong shape, a step used already or a code used already is false. Every guess counts
 * on the account's login throttle from `client`, and only a right code forgets the codes' failures:
 * whatever proves the password, the code is guessed at the login's pace.
 */
export const secondFactorHolds = Effect.fnUntraced(function* (
  record: MfaRecord,
  typed: string,
  actor: AuditActor,
  client: string
) {
  const attempt = yield* countAttempt("code", `member:${record.accountId}`, client)
  const held = yield* holds(record, typed, actor).pipe(Effect.tapError(() => attempt.giveBack))
  if (held) yield* attempt.succeeded
  return held
})
