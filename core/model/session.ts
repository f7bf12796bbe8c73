import { Schema } from "effect"
import { MemberId, TokenHash } from "./ids.ts"

export class Session extends Schema.Class<Session>("roster/Session")({
  tokenHash: TokenHash,
  memberId: MemberId,
  /** The member's session epoch when the session was issued. */
  memberEpoch: Schema.Int,
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc
}) {}
