import { Effect, Layer } from "effect"
import { InvitationMail } from "../../core/index.ts"

/** A deployment that sends no mail: the invitation's creator gets its token, once, to deliver it. */
export const noInvitationMailLayer = Layer.succeed(
  InvitationMail,
  InvitationMail.of({ delivers: false, send: () => Effect.void })
)
