import { Schema } from "effect"
import { MemberId, TokenHash } from "./ids.ts"

export class Session extends Schema.Class<Session>("roster/Session")({
  tokenHash: TokenHash,
  memberId: MemberId,
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc
}) {}
