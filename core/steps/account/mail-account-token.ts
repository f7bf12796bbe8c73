import { DateTime, Duration, Effect, Option } from "effect"
import { AccountToken, type MailedPurpose } from "../../model/account-token.ts"
import type { MemberId, OrganizationId } from "../../model/ids.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { AccountMail } from "../../ports/account-mail.ts"
import { AccountTokenStore } from "../../ports/account-token-store.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { TokenIssuer, type TokenKind } from "../../ports/token-issuer.ts"

const lifetimeOf = (
  purpose: MailedPurpose,
  settings: { readonly resetTtl?: Duration.Duration; readonly verificationTtl?: Duration.Duration }
) =>
  purpose === "password_reset"
    ? (settings.resetTtl ?? Duration.hours(1))
    : (settings.verificationTtl ?? Duration.hours(24))

const tokenKinds = {
  password_reset: "reset",
  email_verification: "verification",
  email_change: "email_change"
} as const satisfies Record<MailedPurpose, TokenKind>

/**
 * Makes a one-time token of `purpose` for the account (replacing the one it had) and mails it to
 * the account's address, or to the new address `to` it proves: the token leaves only in the mail,
 * and only its digest is kept, bound to the account's session epoch in `organizationId` (whatever
 * ends its sessions ends the token). Mails nothing when the account is no member there any more.
 */
export const mailAccountToken = Effect.fnUntraced(function* (
  purpose: MailedPurpose,
  accountId: MemberId,
  organizationId: OrganizationId,
  to?: string
) {
  const found = yield* (yield* MemberStore)
    .findById(accountId)
    .pipe(Effect.provideService(CurrentOrganization, organizationId))
  if (Option.isNone(found)) return
  const member = found.value
  const settings = yield* AuthSettings
  const now = yield* DateTime.now
  const { token, hash } = yield* (yield* TokenIssuer).issue(tokenKinds[purpose])
  const stored = new AccountToken({
    tokenHash: hash,
    purpose,
    accountId,
    organizationId,
    email: to ?? member.email,
    createdAt: now,
    expiresAt: DateTime.addDuration(now, lifetimeOf(purpose, settings)),
    triesLeft: 1,
    sessionEpoch: member.sessionEpoch
  })
  yield* (yield* AccountTokenStore).issue(stored)
  yield* (yield* AccountMail).send({ to: stored.email, purpose, token, expiresAt: stored.expiresAt })
})
