import { DateTime, Effect, Layer } from "effect"
import { InvitationMail, type InvitationMessage } from "../../core/index.ts"
import { linkWith, openSmtpSender, type SmtpOptions, type SmtpSender } from "./smtp-sender.ts"

export type { SmtpOptions } from "./smtp-sender.ts"

const textOf = (message: InvitationMessage, link: string) =>
  [
    `You are invited to join ${message.organization.name} on Roster.`,
    "",
    `Accept the invitation: ${link}`,
    "",
    `The link is valid until ${DateTime.formatIso(message.expiresAt)} and can be used once.`,
    "If you did not expect this invitation, ignore this message."
  ].join("\n")

/** Invitations sent by `send`, their link made from `inviteUrl`. */
export const invitationMailOf = (send: SmtpSender, inviteUrl: string) =>
  InvitationMail.of({
    delivers: true,
    send: (message) =>
      send({
        to: message.to,
        subject: `Join ${message.organization.name} on Roster`,
        text: textOf(message, linkWith(inviteUrl, message.token))
      })
  })

/** Invitations sent through an SMTP server (see `openSmtpSender`). */
export const smtpInvitationMailLayer = (options: SmtpOptions) =>
  Layer.effect(
    InvitationMail,
    Effect.map(openSmtpSender(options), (send) => invitationMailOf(send, options.inviteUrl))
  )
