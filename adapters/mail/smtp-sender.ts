import { Effect, Redacted } from "effect"
import { createTransport } from "nodemailer"
import { MailUnavailable } from "../../core/index.ts"

export interface SmtpOptions {
  /** `smtp://` or `smtps://`, credentials in the URL. */
  readonly url: Redacted.Redacted<string>
  /** The sender of every message. */
  readonly from: string
  /** The link in an invitation: `{token}` stands for the invitation's token. */
  readonly inviteUrl: string
  /** The link in a password reset mail (`{token}` for its token); none sends no reset mail. */
  readonly resetUrl?: string
  /** The link in a verification mail (`{token}` for its token); none sends no verification mail. */
  readonly verifyUrl?: string
  /** How long one message may take, connection included. */
  readonly timeout?: number
}

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/** `template` with its `{token}` standing for `token`, escaped for a URL. */
export const linkWith = (template: string, token: Redacted.Redacted<string>) =>
  template.replaceAll("{token}", encodeURIComponent(Redacted.value(token)))

/**
 * A sender of messages through an SMTP server with nodemailer. The transport (a pool of
 * connections) is made in the scope and closed with it; a message the server does not take is
 * `MailUnavailable`, and its cause is logged, never the message (it holds a token).
 */
export const openSmtpSender = (options: SmtpOptions) =>
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
    return (message: MailMessage) =>
      Effect.tryPromise({ try: () => transport.sendMail(message), catch: (cause) => cause }).pipe(
        Effect.timeout(timeout),
        Effect.tapError((cause) =>
          Effect.logWarning("The mail server did not take a message", String(cause).slice(0, 300))
        ),
        Effect.mapError(() => new MailUnavailable()),
        Effect.asVoid
      )
  })

export type SmtpSender = Effect.Success<ReturnType<typeof openSmtpSender>>
