import { DateTime, Effect } from "effect"
import { type MemberRecord, toMember } from "../../model/member.ts"
import type { Organization } from "../../model/organization.ts"
import { CurrentOrigin } from "../../model/request.ts"
import { Session, type SignInProof } from "../../model/session.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { hasSecondFactor } from "../passkeys/second-factor-of.ts"

/**
 * Opens a session for `member` in its organisation: the token is answered once, only its hash is
 * stored. In one that requires a second factor, a member without one (TOTP or a passkey) gets a session that may only
 * enrol it (`mfaPending`), unless the sign-in proved two factors itself (`twoFactors`: an identity
 * provider, which holds the factors, or a passkey with user verification). The session keeps how
 * the sign-in was proved and when (`signIn`), for the access tokens made from it.
 */
export const startSession = Effect.fnUntraced(function* (
  member: MemberRecord,
  organization: Organization,
  signIn: SignInProof,
  proof: { readonly twoFactors?: boolean } = {}
) {
  const settings = yield* AuthSettings
  const now = yield* DateTime.now
  const { token, hash } = yield* (yield* TokenIssuer).issue("session")
  const origin = yield* CurrentOrigin
  const session = new Session({
    tokenHash: hash,
    id: yield* (yield* IdGenerator).next("session"),
    memberId: member.id,
    organizationId: member.organizationId,
    memberEpoch: member.sessionEpoch,
    createdAt: now,
    lastSeenAt: DateTime.startOf(now, "minute"),
    expiresAt: DateTime.addDuration(now, settings.sessionTtl),
    userAgent: origin.userAgent?.slice(0, 256) ?? null,
    address: origin.address?.slice(0, 256) ?? null,
    amr: signIn.amr,
    authTime: signIn.authTime ?? now,
    mfaPending:
      // Read only for an organisation that requires a second factor.
      organization.requireMfa === true && proof.twoFactors !== true && !(yield* hasSecondFactor(member.id))
  })
  yield* (yield* SessionStore).create(session)
  return { token, expiresAt: session.expiresAt, member: toMember(member), organization }
})
