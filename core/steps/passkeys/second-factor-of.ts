import { Effect, Option } from "effect"
import type { MemberId } from "../../model/ids.ts"
import { hasTotp, type SecondFactorMethod } from "../../model/mfa.ts"
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

/**
 * The ways the account can give its second step: TOTP that is on, a recovery code while any is
 * left, a passkey that may still sign in. None: the account has no second factor.
 */
export const secondFactorsOf = Effect.fnUntraced(function* (accountId: MemberId) {
  const record = Option.getOrUndefined(yield* (yield* MfaStore).find(accountId))
  const methods: Array<SecondFactorMethod> = []
  if (hasTotp(record)) {
    methods.push("totp")
    if (record.recoveryCodes.length > 0) methods.push("recovery_code")
  }
  if ((yield* usablePasskeys(accountId)).length > 0) methods.push("passkey")
  return methods
})
