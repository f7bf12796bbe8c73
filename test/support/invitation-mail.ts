import { Effect, Layer } from "effect"
import { InvitationMail, type InvitationMessage, MailUnavailable } from "../../core/index.ts"

/** A mail server for invitations that keeps what it is given, or refuses everything. */
export const invitationMailbox = (refuses = false) => {
  const sent: Array<InvitationMessage> = []
  const layer = Layer.succeed(InvitationMail)({
    delivers: true,
    send: (message) =>
      refuses ? Effect.fail(new MailUnavailable()) : Effect.sync(() => void sent.push(message))
  })
  return { sent, layer }
}
