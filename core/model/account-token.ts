import { Schema } from "effect"
import { MemberId, OrganizationId, TokenHash } from "./ids.ts"
import { Email } from "./member.ts"

/**
 * What a one-time token sent by mail proves: who may set a new password, that an address is
 * theirs, or that a new address they asked for is (its `email` the new one).
 */
export const MailedPurpose = Schema.Literals(["password_reset", "email_verification", "email_change"])
export type MailedPurpose = typeof MailedPurpose.Type

/**
 * A mailed token's purpose, a login's second step (the challenge a login with TOTP answers), or the
 * code a single sign-on ends with (exchanged once for a session).
 */
export const AccountTokenPurpose = Schema.Literals([
  "password_reset",
  "email_verification",
  "email_change",
  "mfa_challenge",
  "sso_code"
])
export type AccountTokenPurpose = typeof AccountTokenPurpose.Type

/**
 * A one-time token of an account, known to the store only by its digest: one mailed to its address,
 * or a login's challenge. An account holds at most one per purpose (a new one replaces it); it is
 * used once, before `expiresAt`, and a challenge may be tried `triesLeft` times. It names the
 * address it was sent to, which is what a mailed one proves, the organisation the request was made
 * in, and the account's session epoch there when it was made: whatever ends the account's sessions
 * since (its password set by any path, the account disabled) ends the token too.
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
  triesLeft: Schema.Int,
  /** `MemberRecord.sessionEpoch` in `organizationId` when the token was made; -1 for tokens stored before. */
  sessionEpoch: Schema.Int
}) {}

/** Tokens stored before they carried an epoch: no epoch is ever this, so none of them is honoured. */
export const unknownSessionEpoch = -1

/** Whether `member` is still the account the token was made for: enabled, its sessions not ended since. */
export const tokenStillHolds = (
  token: AccountToken,
  member: { readonly sessionEpoch: number; readonly accountActiveStatus: boolean }
): boolean => member.accountActiveStatus && member.sessionEpoch === token.sessionEpoch
