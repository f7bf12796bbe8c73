import { Config, Duration, Effect, Option, Redacted } from "effect"
import type { SmtpOptions } from "../adapters/mail/smtp-sender.ts"
import { readEnvironment, refuse } from "./startup-error.ts"

const environment = Config.all({
  smtpUrl: Config.Redacted("ROSTER_SMTP_URL").pipe(Config.option),
  from: Config.String("ROSTER_MAIL_FROM").pipe(Config.option),
  inviteUrl: Config.String("ROSTER_INVITE_URL").pipe(Config.option),
  resetUrl: Config.String("ROSTER_RESET_URL").pipe(Config.option),
  verifyUrl: Config.String("ROSTER_VERIFY_URL").pipe(Config.option),
  invitationTtl: Config.Duration("ROSTER_INVITATION_TTL").pipe(Config.withDefault(Duration.days(7))),
  resetTtl: Config.Duration("ROSTER_RESET_TTL").pipe(Config.withDefault(Duration.hours(1))),
  verificationTtl: Config.Duration("ROSTER_VERIFY_TTL").pipe(Config.withDefault(Duration.hours(24)))
})

/** What mail is sent and how long its links last, as the operator configured them. */
export interface MailSettings {
  /** Absent: no mail is sent; an invitation's creator gets its token, once, and no reset or verification mail goes. */
  readonly smtp: Option.Option<SmtpOptions>
  readonly invitationTtl: Duration.Duration
  readonly resetTtl: Duration.Duration
  readonly verificationTtl: Duration.Duration
}

const between = (
  name: string,
  value: Duration.Duration,
  least: Duration.Duration,
  most: Duration.Duration
) =>
  !Duration.isFinite(value) || Duration.isLessThan(value, least) || Duration.isGreaterThan(value, most)
    ? refuse(
        `${name} must be between ${Duration.format(least)} and ${Duration.format(most)}, e.g. \`1 hour\``
      )
    : Effect.void

/** A link template, when given: an http(s) address holding `{token}`. */
const linkTemplate = (name: string, value: Option.Option<string>, example: string) =>
  Option.match(value, {
    onNone: () => Effect.succeed(undefined),
    onSome: (template) =>
      template.includes("{token}") && /^https?:\/\//u.test(template)
        ? Effect.succeed(template)
        : refuse(`${name} must be an http(s) link holding {token}, e.g. ${example}`)
  })

/**
 * `ROSTER_SMTP_URL` (`smtp://` or `smtps://`, credentials in it) turns mail on, and then
 * `ROSTER_MAIL_FROM` and `ROSTER_INVITE_URL` (a link holding `{token}`) are required at start, not
 * discovered by the first invitation. `ROSTER_RESET_URL` and `ROSTER_VERIFY_URL` turn on the reset
 * and verification mail, each on its own: a link nobody set is never mailed.
 */
export const loadMailSettings = Effect.gen(function* () {
  const env = yield* readEnvironment(environment)
  yield* between("ROSTER_INVITATION_TTL", env.invitationTtl, Duration.minutes(1), Duration.days(90))
  yield* between("ROSTER_RESET_TTL", env.resetTtl, Duration.minutes(5), Duration.days(1))
  yield* between("ROSTER_VERIFY_TTL", env.verificationTtl, Duration.minutes(5), Duration.days(30))
  const lifetimes = {
    invitationTtl: env.invitationTtl,
    resetTtl: env.resetTtl,
    verificationTtl: env.verificationTtl
  }
  if (Option.isNone(env.smtpUrl)) return { smtp: Option.none(), ...lifetimes } satisfies MailSettings
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
  const resetUrl = yield* linkTemplate(
    "ROSTER_RESET_URL",
    env.resetUrl,
    "https://app.example.com/password/reset?token={token}"
  )
  const verifyUrl = yield* linkTemplate(
    "ROSTER_VERIFY_URL",
    env.verifyUrl,
    "https://app.example.com/email/verify?token={token}"
  )
  const smtp: SmtpOptions = {
    url: env.smtpUrl.value,
    from: env.from.value,
    inviteUrl,
    ...(resetUrl === undefined ? {} : { resetUrl }),
    ...(verifyUrl === undefined ? {} : { verifyUrl })
  }
  return { smtp: Option.some(smtp), ...lifetimes } satisfies MailSettings
})
