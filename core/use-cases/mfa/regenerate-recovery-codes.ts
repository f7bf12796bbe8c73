import { Effect } from "effect"
import { NotFound } from "../../model/errors.ts"
import { hasTotp } from "../../model/mfa.ts"
import type { Principal } from "../../model/principal.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { ownAccount } from "../../steps/account/own-account.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { type FactorProof, proveFactorOwner } from "../../steps/mfa/factor-proof.ts"
import { newRecoveryCodes } from "../../steps/mfa/new-recovery-codes.ts"

/**
 * Ten new recovery codes for the signed-in person, proving their password and a code of their
 * factor (new codes are a way in: the password alone does not make them); the old ones stop working.
 */
export const regenerateRecoveryCodes = Effect.fnUntraced(function* (
  actor: Principal,
  input: FactorProof,
  client: string
) {
  const { member } = yield* ownAccount(actor)
  const { record } = yield* proveFactorOwner(actor, input, client)
  if (!hasTotp(record)) return yield* new NotFound({ entity: "totp", id: member.id })
  const { codes, digests } = yield* newRecoveryCodes(yield* (yield* SecretBox).open(record.secret))
  const entry = yield* newAuditEntry(auditActorOf(actor), "mfa.recovery_codes_regenerated", {
    type: "member",
    id: member.id
  })
  if (!(yield* (yield* MfaStore).replaceRecoveryCodes(member.id, digests, entry))) {
    return yield* new NotFound({ entity: "totp", id: member.id })
  }
  return { recoveryCodes: codes }
})
