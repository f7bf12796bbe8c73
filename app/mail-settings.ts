import { Config, Duration, Effect, Option, Redacted } from "effect"
import type { SmtpOptions } from "../adapters/mail/smtp-invitation-mail.ts"
import { readEnvironment, refuse } from "./startup-error.ts"

const environment = Config.all({
  smtpUrl: Config.Redacted("ROSTER_SMTP_URL").pipe(Config.option),
  from: Config.String("ROSTER_MAIL_FROM").pipe(Config.option),
  inviteUrl: Config.String("ROSTER_INVITE_URL").pipe(Config.option),
  invitationTtl: Config.Duration("ROSTER_INVITATION_TTL").pipe(Config.withDefault(Duration.days(7)))
})

/** How invitations are delivered and how long they last, as the operator configured them. */
export interface MailSettings {
  /** Absent: no mail is sent; an invitation's creator gets its token, once. */
  readonly smtp: Option.Option<SmtpOptions>
  readonly invitationTtl: Duration.Duration
}

/**
 * `ROSTER_SMTP_URL` (`smtp://` or `smtps://`, credentials in it) turns mail on, and then
 * `ROSTER_MAIL_FROM` and `ROSTER_INVITE_URL` (a link holding `{token}`) are required at start, not
 * discovered by the first invitation.
 */
export const loadMailSettings = Effect.gen(function* () {
  const env = yield* readEnvironment(environment)
  if (
    !Duration.isFinite(env.invitationTtl) ||
    Duration.isLessThan(env.invitationTtl, Duration.minutes(1)) ||
    Duration.isGreaterThan(env.invitationTtl, Duration.days(90))
  ) {
    return yield* refuse("ROSTER_INVITATION_TTL must be between 1 minute and 90 days, e.g. `7 days`")
  }
  const none = { smtp: Option.none(), invitationTtl: env.invitationTtl } satisfies MailSettings
  if (Option.isNone(env.smtpUrl)) return none
  if (!/^smtps?:\/\/[^/]/u.test(Redacted.value(env.smtpUrl.value))) {
    return yield* refuse("ROSTER_SMTP_URL must be an smtp:// or smtps:// address")
  }
  if (Option.isNone(env.from) || !env.from.value.includes("@")) {
    return yield* refuse("ROSTER_MAIL_FROM must be set to a sender address when ROSTER_SMTP_URL is set")
  }
  const inviteUrl = Option.getOrUndefined(env.inviteUrl)
  if (inviteUrl === undefined || !inviteUrl.includes("{token}") || !/^https?:\/\//u.test(inviteUrl)) {
    return yield* refuse(
      "ROSTER_INVITE_URL must be set to an http(s) link holding {token} when ROSTER_SMTP_URL is set, " +
        "e.g. https://app.example.com/invitations/accept?token={token}"
    )
  }
  return {
    smtp: Option.some({ url: env.smtpUrl.value, from: env.from.value, inviteUrl }),
    invitationTtl: env.invitationTtl
  } satisfies MailSettings
})
