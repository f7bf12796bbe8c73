import { DateTime, Effect } from "effect"
import { type MemberRecord, toMember } from "../../model/member.ts"
import type { Organization } from "../../model/organization.ts"
import { CurrentOrigin } from "../../model/request.ts"
import { Session } from "../../model/session.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { SessionTokens } from "../../ports/session-tokens.ts"

/** Opens a session for `member` in its organisation: the token is answered once, only its hash is stored. */
export const startSession = Effect.fnUntraced(function* (member: MemberRecord, organization: Organization) {
  const settings = yield* AuthSettings
  const now = yield* DateTime.now
  const { token, hash } = yield* (yield* SessionTokens).issue("session")
  const origin = yield* CurrentOrigin
  const session = new Session({
    tokenHash: hash,
    id: yield* (yield* IdGenerator).sessionId,
    memberId: member.id,
    organizationId: member.organizationId,
    memberEpoch: member.sessionEpoch,
    createdAt: now,
    lastSeenAt: DateTime.startOf(now, "minute"),
    expiresAt: DateTime.addDuration(now, settings.sessionTtl),
    userAgent: origin.userAgent?.slice(0, 256) ?? null,
    address: origin.address?.slice(0, 256) ?? null
  })
  yield* (yield* SessionStore).create(session)
  return { token, expiresAt: session.expiresAt, member: toMember(member), organization }
})
