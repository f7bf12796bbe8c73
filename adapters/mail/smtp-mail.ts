import { Context, Effect, Layer } from "effect"
import { AccountMail, InvitationMail } from "../../core/index.ts"
import { accountMailOf } from "./smtp-account-mail.ts"
import { invitationMailOf } from "./smtp-invitation-mail.ts"
import { openSmtpSender, type SmtpOptions } from "./smtp-sender.ts"

/** Invitations and account mail through one SMTP transport (see `openSmtpSender`). */
export const smtpMailLayer = (options: SmtpOptions) =>
  Layer.effectContext(
    Effect.map(openSmtpSender(options), (send) =>
      Context.make(InvitationMail, invitationMailOf(send, options.inviteUrl)).pipe(
        Context.add(AccountMail, accountMailOf(send, options))
      )
    )
  )
