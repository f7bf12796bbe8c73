import { DateTime, Effect, Option, Redacted } from "effect"
import type { AuditActor } from "../../model/audit.ts"
import type { MemberId } from "../../model/ids.ts"
import type { MfaRecord } from "../../model/mfa.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { normalRecoveryCode, SessionTokens } from "../../ports/session-tokens.ts"
import { Totp } from "../../ports/totp.ts"
import { newAuditEntry } from "../audit/new-audit-entry.ts"

/** A code from the authenticator app: six digits, spaces allowed as apps show them. */
const totpCode = (typed: string) => {
  const digits = typed.replace(/\s/gu, "")
  return /^\d{6}$/u.test(digits) ? digits : undefined
}

/**
 * Whether `typed` is the account's second factor now, using it up: a TOTP code of a time step not
 * taken before (the step is taken), or one of its unused recovery codes (used once, recorded). A
 * code of the wrong shape, a step used already or a code used already is false.
 */
export const secondFactorHolds = Effect.fnUntraced(function* (
  record: MfaRecord,
  typed: string,
  actor: AuditActor
) {
  if (record.secret === null) return false
  const store = yield* MfaStore
  const accountId: MemberId = record.accountId
  const code = totpCode(typed)
  if (code !== undefined) {
    const secret = yield* (yield* SecretBox).open(record.secret)
    const step = yield* (yield* Totp).stepOf(secret, code, yield* DateTime.now)
    return Option.isSome(step) && (yield* store.takeStep(accountId, step.value))
  }
  const digest = yield* (yield* SessionTokens).hashOf(Redacted.make(normalRecoveryCode(typed)))
  const entry = yield* newAuditEntry(actor, "mfa.recovery_code_used", { type: "member", id: accountId })
  return yield* store.useRecoveryCode(accountId, digest, entry)
})
