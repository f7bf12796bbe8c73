import { Effect, Layer } from "effect"
import { InvitationMail, type InvitationMessage } from "../../core/index.ts"

/**
 * Invitations "sent" into a list, for tests and for services that embed the core and deliver mail
 * their own way: `sent` holds every message, token included.
 */
export const recordingInvitationMail = () => {
  const sent: Array<InvitationMessage> = []
  const layer = Layer.succeed(
    InvitationMail,
    InvitationMail.of({ delivers: true, send: (message) => Effect.sync(() => void sent.push(message)) })
  )
  return { sent: sent as ReadonlyArray<InvitationMessage>, layer }
}
