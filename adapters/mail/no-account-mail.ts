import { Effect, Layer } from "effect"
import { AccountMail } from "../../core/index.ts"

/** A deployment that mails no reset or verification links: those requests are refused as off. */
export const noAccountMailLayer = Layer.succeed(
  AccountMail,
  AccountMail.of({
    delivers: { password_reset: false, email_verification: false, email_change: false },
    send: () => Effect.void,
    tell: () => Effect.void
  })
)
