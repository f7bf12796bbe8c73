import { Schema } from "effect"
import { MemberId, OrganizationId, TokenHash } from "./ids.ts"

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class Session extends Schema.Class<Session>("roster/Session")({
  tokenHash: TokenHash,
  memberId: MemberId,
  /** The organisation the session acts on, for its whole life. */
  organizationId: OrganizationId,
  /** The member's session epoch when the session was issued. */
  memberEpoch: Schema.Int,
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc
}) {}
