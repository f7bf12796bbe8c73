import { DateTime, Effect, Layer, Redacted } from "effect"
import { createTransport } from "nodemailer"
import { InvitationMail, type InvitationMessage, MailUnavailable } from "../../core/index.ts"

export interface SmtpOptions {
  /** `smtp://` or `smtps://`, credentials in the URL. */
  readonly url: Redacted.Redacted<string>
  /** The sender of every message. */
  readonly from: string
  /** The link in the message: `{token}` stands for the invitation's token. */
  readonly inviteUrl: string
  /** How long one message may take, connection included. */
  readonly timeout?: number
}

const textOf = (message: InvitationMessage, link: string) =>
  [
    `You are invited to join ${message.organization.name} on Roster.`,
    "",
    `Accept the invitation: ${link}`,
    "",
    `The link is valid until ${DateTime.formatIso(message.expiresAt)} and can be used once.`,
    "If you did not expect this invitation, ignore this message."
  ].join("\n")

/**
 * Invitations sent through an SMTP server with nodemailer. The transport (a pool of connections) is
 * made when the layer is built and closed with it; a message the server does not take is
 * `MailUnavailable`, and its cause is logged without the token.
 */
export const smtpInvitationMailLayer = (options: SmtpOptions) =>
  Layer.effect(
    InvitationMail,
    Effect.gen(function* () {
      const timeout = options.timeout ?? 10_000
      const transport = yield* Effect.acquireRelease(
        Effect.sync(() =>
          createTransport(
            {
              url: Redacted.value(options.url),
              connectionTimeout: timeout,
              greetingTimeout: timeout,
              socketTimeout: timeout
            },
            { from: options.from }
          )
        ),
        (opened) => Effect.sync(() => opened.close())
      )
      return InvitationMail.of({
        delivers: true,
        send: (message) => {
          const link = options.inviteUrl.replaceAll(
            "{token}",
            encodeURIComponent(Redacted.value(message.token))
          )
          return Effect.tryPromise({
            try: () =>
              transport.sendMail({
                to: message.to,
                subject: `Join ${message.organization.name} on Roster`,
                text: textOf(message, link)
              }),
            catch: (cause) => cause
          }).pipe(
            Effect.timeout(timeout),
            Effect.tapError((cause) =>
              Effect.logWarning("The mail server did not take an invitation", String(cause).slice(0, 300))
            ),
            Effect.mapError(() => new MailUnavailable()),
            Effect.asVoid
          )
        }
      })
    })
  )
