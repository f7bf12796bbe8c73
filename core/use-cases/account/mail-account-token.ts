import { DateTime, Duration, Effect } from "effect"
import { AccountToken, type MailedPurpose } from "../../model/account-token.ts"
import type { MemberId, OrganizationId } from "../../model/ids.ts"
import { AccountMail } from "../../ports/account-mail.ts"
import { AccountTokenStore } from "../../ports/account-token-store.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { SessionTokens } from "../../ports/session-tokens.ts"

const lifetimeOf = (
  purpose: MailedPurpose,
  settings: { readonly resetTtl?: Duration.Duration; readonly verificationTtl?: Duration.Duration }
) =>
  purpose === "password_reset"
    ? (settings.resetTtl ?? Duration.hours(1))
    : (settings.verificationTtl ?? Duration.hours(24))

/**
 * Makes a one-time token of `purpose` for the account (replacing the one it had) and mails it to
 * `email`: the token leaves only in the mail, and only its digest is kept.
 */
export const mailAccountToken = Effect.fnUntraced(function* (
  purpose: MailedPurpose,
  account: { readonly id: MemberId; readonly email: string },
  organizationId: OrganizationId
) {
  const settings = yield* AuthSettings
  const now = yield* DateTime.now
  const { token, hash } = yield* (yield* SessionTokens).issue(
    purpose === "password_reset" ? "reset" : "verification"
  )
  const stored = new AccountToken({
    tokenHash: hash,
    purpose,
    accountId: account.id,
    organizationId,
    email: account.email,
    createdAt: now,
    expiresAt: DateTime.addDuration(now, lifetimeOf(purpose, settings)),
    triesLeft: 1
  })
  yield* (yield* AccountTokenStore).issue(stored)
  yield* (yield* AccountMail).send({ to: account.email, purpose, token, expiresAt: stored.expiresAt })
})
