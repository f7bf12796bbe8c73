import { Schema } from "effect"
import { MemberId, OrganizationId, SessionId, TokenHash } from "./ids.ts"

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
  mfaPending: Schema.Boolean
}) {}
