import { Effect } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { ownAccount } from "../account/own-account.ts"
import { auditActorOf, newAuditEntry } from "../audit/new-audit-entry.ts"
import type { PasswordProof } from "./enrol-totp.ts"
import { newRecoveryCodes } from "./new-recovery-codes.ts"
import { proveOwnPassword } from "./prove-own-password.ts"

/** Ten new recovery codes for the signed-in person, proving their password; the old ones stop working. */
export const regenerateRecoveryCodes = Effect.fnUntraced(function* (
  actor: Principal,
  input: PasswordProof,
  client: string
) {
  const { member } = yield* ownAccount(actor)
  yield* proveOwnPassword(member.id, input.password, client)
  const { codes, digests } = yield* newRecoveryCodes
  const entry = yield* newAuditEntry(auditActorOf(actor), "mfa.recovery_codes_regenerated", {
    type: "member",
    id: member.id
  })
  if (!(yield* (yield* MfaStore).replaceRecoveryCodes(member.id, digests, entry))) {
    return yield* new NotFound({ entity: "totp", id: member.id })
  }
  return { recoveryCodes: codes }
})
