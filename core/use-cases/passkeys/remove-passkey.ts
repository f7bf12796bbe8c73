import { Effect, Option, type Redacted } from "effect"
import { NotFound } from "../../model/errors.ts"
import { type PasskeyId, toPasskey } from "../../model/passkey.ts"
import type { Principal } from "../../model/principal.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { ownAccount } from "../../steps/account/own-account.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { proveOwnPassword } from "../../steps/mfa/prove-own-password.ts"
import { restrictSessionsOf } from "../../steps/mfa/sessions-under-policy.ts"

/**
 * Removes one of the signed-in person's passkeys, their password proven (always: a stolen session
 * must not take a factor away). The last second factor gone, the account's sessions in
 * organisations that require one may only enrol again.
 */
export const removePasskey = Effect.fnUntraced(function* (
  actor: Principal,
  id: PasskeyId,
  password: Redacted.Redacted<string>,
  client: string
) {
  const { member } = yield* ownAccount(actor)
  yield* proveOwnPassword(member.id, password, client)
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "passkey.removed",
    { type: "member", id: member.id },
    {
      passkey: [id, null]
    }
  )
  const removed = yield* (yield* PasskeyStore).remove(member.id, id, entry)
  if (Option.isNone(removed)) return yield* new NotFound({ entity: "passkey", id })
  yield* restrictSessionsOf(member.id)
  return toPasskey(removed.value)
})
