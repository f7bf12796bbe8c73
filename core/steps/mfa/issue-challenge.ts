import { DateTime, Duration, Effect } from "effect"
import { AccountToken } from "../../model/account-token.ts"
import type { OrganizationId } from "../../model/ids.ts"
import type { MemberRecord } from "../../model/member.ts"
import type { SecondFactorMethod } from "../../model/mfa.ts"
import { AccountTokenStore } from "../../ports/account-token-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"

/** How long a login's challenge waits for its second factor, and how many tries it allows. */
export const challengeLifetime = Duration.minutes(5)
export const challengeTries = 5

/**
 * A login's second step, once the password was right for an account with a second factor: a
 * challenge token (its digest kept, replacing the account's previous one) that `verifyMfa` turns
 * into a session in `organizationId` with one of `methods` (those the account holds), while
 * nothing ended the member's sessions meanwhile. No session is made yet.
 */
export const issueChallenge = Effect.fnUntraced(function* (
  member: MemberRecord,
  organizationId: OrganizationId,
  methods: ReadonlyArray<SecondFactorMethod>
) {
  const now = yield* DateTime.now
  const { token, hash } = yield* (yield* TokenIssuer).issue("challenge")
  const challenge = new AccountToken({
    tokenHash: hash,
    purpose: "mfa_challenge",
    accountId: member.id,
    organizationId,
    email: member.email,
    createdAt: now,
    expiresAt: DateTime.addDuration(now, challengeLifetime),
    triesLeft: challengeTries,
    sessionEpoch: member.sessionEpoch
  })
  yield* (yield* AccountTokenStore).issue(challenge)
  return { mfaRequired: true as const, challenge: token, expiresAt: challenge.expiresAt, methods }
})
