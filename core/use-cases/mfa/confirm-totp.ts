import { DateTime, Effect, Option, Schema } from "effect"
import { MfaInvalid, NotFound } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { Totp } from "../../ports/totp.ts"
import { ownAccount } from "../../steps/account/own-account.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { newRecoveryCodes } from "../../steps/mfa/new-recovery-codes.ts"

export const ConfirmTotpInput = Schema.Struct({ code: Schema.String.check(Schema.isBetweenLength(1, 16)) })
export type ConfirmTotpInput = typeof ConfirmTotpInput.Type

/**
 * Turns TOTP on with a code made from the pending secret: from then on a login asks for a code.
 * A factor that was on (re-enrolling needed a code of it) is replaced with its recovery codes.
 * Answers the ten new recovery codes, this once; only their digests are kept.
 */
export const confirmTotp = Effect.fnUntraced(function* (actor: Principal, input: ConfirmTotpInput) {
  const { member } = yield* ownAccount(actor)
  const store = yield* MfaStore
  const record = Option.getOrUndefined(yield* store.find(member.id))
  if (record?.pending === null || record === undefined)
    return yield* new NotFound({ entity: "totp", id: member.id })
  const secret = yield* (yield* SecretBox).open(record.pending)
  const step = yield* (yield* Totp).stepOf(secret, input.code.replace(/\s/gu, ""), yield* DateTime.now)
  if (Option.isNone(step)) return yield* new MfaInvalid()
  const { codes, digests } = yield* newRecoveryCodes(secret)
  // A factor that was on is replaced, with its codes, only now: the swap is its own entry.
  const action = record.secret === null ? "mfa.enabled" : "mfa.replaced"
  const entry = yield* newAuditEntry(auditActorOf(actor), action, { type: "member", id: member.id })
  // Enrolled again meanwhile: the code was for a secret that is no longer the one to confirm.
  if (!(yield* store.confirm(member.id, record.pending, step.value, digests, entry)))
    return yield* new MfaInvalid()
  // The account has a second factor now: no session of it waits for one any longer.
  yield* (yield* SessionStore).clearMfaPending(member.id)
  return { recoveryCodes: codes }
})
