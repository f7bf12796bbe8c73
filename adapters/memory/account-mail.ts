import { Effect, Layer } from "effect"
import { AccountMail, type AccountMessage, type AddressChangedNotice } from "../../core/index.ts"

/**
 * Reset and verification links "sent" into a list, for tests and for services that embed the core
 * and deliver mail their own way: `sent` holds every message, token included; `told` every notice.
 */
export const recordingAccountMail = () => {
  const sent: Array<AccountMessage> = []
  const told: Array<AddressChangedNotice> = []
  const layer = Layer.succeed(
    AccountMail,
    AccountMail.of({
      delivers: { password_reset: true, email_verification: true, email_change: true },
      send: (message) => Effect.sync(() => void sent.push(message)),
      tell: (notice) => Effect.sync(() => void told.push(notice))
    })
  )
  return {
    sent: sent as ReadonlyArray<AccountMessage>,
    told: told as ReadonlyArray<AddressChangedNotice>,
    layer
  }
}
