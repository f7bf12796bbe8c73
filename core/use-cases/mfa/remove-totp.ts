import { Effect, Schema } from "effect"
import type { Principal } from "../../model/principal.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { PasswordProof, proveFactorOwner } from "../../steps/mfa/factor-proof.ts"
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
  const { account } = yield* proveFactorOwner(actor, input, client, true)
  const entry = yield* newAuditEntry(auditActorOf(actor), "mfa.disabled", { type: "member", id: account.id })
  yield* (yield* MfaStore).remove(account.id, entry)
  yield* restrictSessionsOf(account.id)
})
