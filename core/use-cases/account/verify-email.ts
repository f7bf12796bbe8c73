import { DateTime, Effect, Option, Schema } from "effect"
import { TokenInvalid } from "../../model/errors.ts"
import { toMember } from "../../model/member.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { AccountTokenStore } from "../../ports/account-token-store.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { SessionTokens } from "../../ports/session-tokens.ts"
import { newAuditEntry } from "../audit/new-audit-entry.ts"

export const VerifyEmailInput = Schema.Struct({
  token: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256)))
})
export type VerifyEmailInput = typeof VerifyEmailInput.Type

/**
 * Verifies an address with the token mailed to it; no session is needed, the token proves it. The
 * token is used up first, so it serves once; it verifies only the address it was sent to, while the
 * account still has it. Answers the member in the organisation the link was asked for.
 */
export const verifyEmail = Effect.fnUntraced(function* (input: VerifyEmailInput) {
  const tokenHash = yield* (yield* SessionTokens).hashOf(input.token)
  const used = yield* (yield* AccountTokenStore).consume("email_verification", tokenHash)
  if (Option.isNone(used) || !DateTime.isLessThan(yield* DateTime.now, used.value.expiresAt)) {
    return yield* new TokenInvalid()
  }
  const token = used.value
  return yield* Effect.gen(function* () {
    const entry = yield* newAuditEntry({ kind: "member", id: token.accountId }, "email.verified", {
      type: "member",
      id: token.accountId
    })
    const verified = yield* (yield* MemberStore).verifyEmail(token.accountId, token.email, entry)
    if (Option.isNone(verified)) return yield* new TokenInvalid()
    return toMember(verified.value)
  }).pipe(Effect.provideService(CurrentOrganization, token.organizationId))
})
