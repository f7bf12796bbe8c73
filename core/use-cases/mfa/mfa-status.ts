import { Effect, Option } from "effect"
import { hasTotp } from "../../model/mfa.ts"
import type { Principal } from "../../model/principal.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { ownAccount } from "../../steps/account/own-account.ts"

/** The signed-in person's second factor: whether TOTP is on, and how many recovery codes are left. */
export const mfaStatus = Effect.fnUntraced(function* (actor: Principal) {
  const { member } = yield* ownAccount(actor)
  const record = Option.getOrUndefined(yield* (yield* MfaStore).find(member.id))
  return { totp: hasTotp(record), recoveryCodesLeft: hasTotp(record) ? record.recoveryCodes.length : 0 }
})
