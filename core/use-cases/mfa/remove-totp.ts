import { Effect, Option, Schema } from "effect"
import { MfaInvalid, NotFound } from "../../model/errors.ts"
import { hasTotp } from "../../model/mfa.ts"
import type { Principal } from "../../model/principal.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { ownAccount } from "../../steps/account/own-account.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { PasswordProof } from "../../steps/mfa/factor-proof.ts"
import { proveOwnPassword } from "../../steps/mfa/prove-own-password.ts"
import { secondFactorHolds } from "../../steps/mfa/second-factor.ts"
import { restrictSessionsOf } from "../../steps/mfa/sessions-under-policy.ts"

export const RemoveTotpInput = Schema.Struct({
  ...PasswordProof.fields,
  /** A code from the app, or a recovery code. */
  code: Schema.String.check(Schema.isBetweenLength(1, 32))
})
export type RemoveTotpInput = typeof RemoveTotpInput.Type

/** Turns the signed-in person's TOTP off, proving both their password and their second factor. */
export const removeTotp = Effect.fnUntraced(function* (
  actor: Principal,
  input: RemoveTotpInput,
  client: string
) {
  const { member } = yield* ownAccount(actor)
  const store = yield* MfaStore
  const record = Option.getOrUndefined(yield* store.find(member.id))
  if (!hasTotp(record)) return yield* new NotFound({ entity: "totp", id: member.id })
  yield* proveOwnPassword(member.id, input.password, client)
  if (!(yield* secondFactorHolds(record, input.code, auditActorOf(actor), client))) {
    return yield* new MfaInvalid()
  }
  const entry = yield* newAuditEntry(auditActorOf(actor), "mfa.disabled", { type: "member", id: member.id })
  yield* store.remove(member.id, entry)
  yield* restrictSessionsOf(member.id)
})
