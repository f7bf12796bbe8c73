import { Effect, Option } from "effect"
import type { MemberId } from "../../model/ids.ts"
import { hasTotp } from "../../model/mfa.ts"
import { MfaStore } from "../../ports/mfa-store.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"

/** The account's passkeys that may still sign in (a suspected clone may not). */
export const usablePasskeys = (accountId: MemberId) =>
  Effect.map(
    PasskeyStore.use((store) => store.ofAccount(accountId)),
    (passkeys) => passkeys.filter((passkey) => !passkey.suspended)
  )

/** Whether the account has a second factor: TOTP that is on, or a passkey. */
export const hasSecondFactor = Effect.fnUntraced(function* (accountId: MemberId) {
  if (hasTotp(Option.getOrUndefined(yield* (yield* MfaStore).find(accountId)))) return true
  return (yield* usablePasskeys(accountId)).length > 0
})
