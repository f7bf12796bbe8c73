import { Schema } from "effect"
import { MemberId, OrganizationId, TokenHash } from "./ids.ts"
import { Email } from "./member.ts"

/** What a one-time token sent by mail proves: who may set a new password, or that an address is theirs. */
export const MailedPurpose = Schema.Literals(["password_reset", "email_verification"])
export type MailedPurpose = typeof MailedPurpose.Type

/** A mailed token's purpose, or a login's second step (the challenge a login with TOTP answers). */
export const AccountTokenPurpose = Schema.Literals(["password_reset", "email_verification", "mfa_challenge"])
export type AccountTokenPurpose = typeof AccountTokenPurpose.Type

/**
 * A one-time token of an account, known to the store only by its digest: one mailed to its address,
 * or a login's challenge. An account holds at most one per purpose (a new one replaces it); it is
 * used once, before `expiresAt`, and a challenge may be tried `triesLeft` times. It names the
 * address it was sent to, which is what a mailed one proves, and the organisation the request was
 * made in.
 */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class AccountToken extends Schema.Class<AccountToken>("roster/AccountToken")({
  tokenHash: TokenHash,
  purpose: AccountTokenPurpose,
  accountId: MemberId,
  organizationId: OrganizationId,
  email: Email,
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc,
  triesLeft: Schema.Int
}) {}
