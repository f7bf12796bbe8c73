import { type DateTime, Schema } from "effect"
import { MemberId, OrganizationId, SessionId, TokenHash } from "./ids.ts"

/**
 * How a sign-in was proved, as RFC 8176 names it: `pwd` a password, `otp` a TOTP or recovery code,
 * `hwk` a passkey bound to its device and `swk` one backed up (a synced passkey), `user` its user
 * verification, `mfa` two factors, `sso` the organisation's own identity provider (which proves
 * nothing of how many factors it asked for).
 */
export const AuthMethod = Schema.Literals(["pwd", "otp", "hwk", "swk", "user", "mfa", "sso"])
export type AuthMethod = typeof AuthMethod.Type

/** What the sign-in that makes a session proved, and when: kept on the session, told by its access tokens. */
export interface SignInProof {
  readonly amr: ReadonlyArray<AuthMethod>
  /** When the person proved it; now when absent. */
  readonly authTime?: DateTime.Utc
}

/** A password alone. */
export const byPassword: SignInProof = { amr: ["pwd"] }

/** A password and then a code (TOTP or a recovery code). */
export const byPasswordAndCode: SignInProof = { amr: ["pwd", "otp", "mfa"] }

/** A passkey with user verification, after a password or alone (two factors either way). */
export const byPasskey = (backedUp: boolean, afterPassword: boolean): SignInProof => ({
  amr: [...(afterPassword ? (["pwd"] as const) : []), backedUp ? "swk" : "hwk", "user", "mfa"]
})

/** The organisation's own identity provider. */
export const bySso = (authTime?: DateTime.Utc): SignInProof => ({
  amr: ["sso"],
  ...(authTime === undefined ? {} : { authTime })
})

/** What a session that proves a new one proved, less `sso`: another organisation's provider proves nothing here. */
export const carriedOver = (amr: ReadonlyArray<AuthMethod>, authTime: DateTime.Utc): SignInProof => ({
  amr: amr.filter((method) => method !== "sso"),
  authTime
})

/** What a session keeps of the request that opened it, for its owner to recognise it by: never trusted. */
export const SessionOrigin = Schema.NullOr(Schema.String.check(Schema.isMaxLength(256)))

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class Session extends Schema.Class<Session>("roster/Session")({
  tokenHash: TokenHash,
  /** Its public name: what its owner lists and ends it by. */
  id: SessionId,
  memberId: MemberId,
  /** The organisation the session acts on, for its whole life. */
  organizationId: OrganizationId,
  /** The member's session epoch when the session was issued. */
  memberEpoch: Schema.Int,
  createdAt: Schema.DateTimeUtc,
  /** The minute it was last used in; written at most once a minute. */
  lastSeenAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc,
  /** The `User-Agent` of the request that opened it, cut to 256 characters. */
  userAgent: SessionOrigin,
  /** The client address of the request that opened it. */
  address: SessionOrigin,
  /**
   * Whether its organisation requires a second factor its account does not have: it may then only
   * enrol TOTP, read who it is and sign out, until its account has TOTP.
   */
  mfaPending: Schema.Boolean,
  /** How its sign-in was proved; empty for a session made before Roster recorded it. */
  amr: Schema.Array(AuthMethod),
  /** When its sign-in was proved (its creation, for a session made before Roster recorded it). */
  authTime: Schema.DateTimeUtc
}) {}
