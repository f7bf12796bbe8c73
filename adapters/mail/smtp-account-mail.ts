import { DateTime, Effect } from "effect"
import { AccountMail, type AccountMessage } from "../../core/index.ts"
import { linkWith, type SmtpOptions, type SmtpSender } from "./smtp-sender.ts"

const wordsOf = {
  password_reset: {
    subject: "Reset your Roster password",
    lead: "Someone asked to reset the password of the Roster account of this address.",
    action: "Choose a new password",
    otherwise: "If it was not you, ignore this message: your password stays as it is."
  },
  email_verification: {
    subject: "Verify your e-mail address for Roster",
    lead: "Confirm that this address is yours on Roster.",
    action: "Verify the address",
    otherwise: "If you did not ask for this, ignore this message."
  },
  email_change: {
    subject: "Confirm your new e-mail address for Roster",
    lead: "Someone asked to move a Roster account to this address. It moves only once you confirm.",
    action: "Confirm the new address",
    otherwise: "If you did not ask for this, ignore this message: nothing changes."
  }
} as const satisfies Record<AccountMessage["purpose"], unknown>

const textOf = (message: AccountMessage, link: string) => {
  const words = wordsOf[message.purpose]
  return [
    words.lead,
    "",
    `${words.action}: ${link}`,
    "",
    `The link is valid until ${DateTime.formatIso(message.expiresAt)} and can be used once.`,
    words.otherwise
  ].join("\n")
}

/** Account mail sent by `send`: each purpose whose link template is given; the others are off. */
export const accountMailOf = (send: SmtpSender, links: Pick<SmtpOptions, "resetUrl" | "verifyUrl">) => {
  const templates = {
    password_reset: links.resetUrl,
    email_verification: links.verifyUrl,
    email_change: links.verifyUrl
  }
  return AccountMail.of({
    delivers: {
      password_reset: templates.password_reset !== undefined,
      email_verification: templates.email_verification !== undefined,
      email_change: templates.email_change !== undefined
    },
    send: (message) => {
      const template = templates[message.purpose]
      if (template === undefined) return Effect.die(new Error(`No link for ${message.purpose} mail`))
      return send({
        to: message.to,
        subject: wordsOf[message.purpose].subject,
        text: textOf(message, linkWith(template, message.token))
      })
    },
    tell: (notice) =>
      send({
        to: notice.to,
        subject: "The e-mail address of your Roster account changed",
        text: [
          `The Roster account of this address now has the address ${notice.newEmail}.`,
          "Password reset links go there from now on.",
          "",
          "If you did not ask for this, tell your organisation's administrator at once."
        ].join("\n")
      })
  })
}
