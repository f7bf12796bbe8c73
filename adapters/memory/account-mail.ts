import { Effect, Layer } from "effect"
import { AccountMail, type AccountMessage } from "../../core/index.ts"

/**
 * Reset and verification links "sent" into a list, for tests and for services that embed the core
 * and deliver mail their own way: `sent` holds every message, token included.
 */
export const recordingAccountMail = () => {
  const sent: Array<AccountMessage> = []
  const layer = Layer.succeed(
    AccountMail,
    AccountMail.of({
      delivers: { password_reset: true, email_verification: true },
      send: (message) => Effect.sync(() => void sent.push(message))
    })
  )
  return { sent: sent as ReadonlyArray<AccountMessage>, layer }
}
