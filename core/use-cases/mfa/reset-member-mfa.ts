import { Effect } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { administeredAccount } from "../../steps/members/administered-account.ts"
import { restrictSessionsOf } from "../../steps/mfa/sessions-under-policy.ts"

/**
 * An administrator clears another member's second factor (a lost phone and lost codes): TOTP,
 * pending or on, and its recovery codes; the member signs in with the password alone and may enrol
 * again. Held to the ceiling, never on oneself, and, as the second factor is the account's, by an
 * organisation's administrator only on an account that is theirs alone.
 */
export const resetMemberMfa = Effect.fnUntraced(function* (actor: Principal, id: MemberId) {
  yield* administeredAccount(actor, id)
  const entry = yield* newAuditEntry(auditActorOf(actor), "mfa.reset", { type: "member", id })
  if (!(yield* (yield* MfaStore).remove(id, entry))) return yield* new NotFound({ entity: "totp", id })
  yield* restrictSessionsOf(id)
})
