import { DateTime, Effect, Option, Schema } from "effect"
import { type AccountToken, tokenStillHolds } from "../../model/account-token.ts"
import { changesBetween } from "../../model/audit.ts"
import { TokenInvalid } from "../../model/errors.ts"
import { type MemberRecord, memberAuditFields, toMember } from "../../model/member.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { AccountTokenStore } from "../../ports/account-token-store.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { tellAddressChanged } from "../../steps/account/tell-address-changed.ts"
import { auditEntryOfChanges, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { requireAddressHeld } from "../../steps/sso/require-address-held.ts"

export const VerifyEmailInput = Schema.Struct({
  token: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256)))
})
export type VerifyEmailInput = typeof VerifyEmailInput.Type

/** The address the account has, proven. */
const verifyCurrent = Effect.fnUntraced(function* (token: AccountToken) {
  const entry = yield* newAuditEntry({ kind: "member", id: token.accountId }, "email.verified", {
    type: "member",
    id: token.accountId
  })
  return yield* (yield* MemberStore).verifyEmail(token.accountId, token.email, entry)
})

/** The account moved to the new address the token was mailed to, proven by it; the old one is told. */
const moveTo = Effect.fnUntraced(function* (token: AccountToken, member: MemberRecord) {
  // Single sign-on may have been required since the link was asked for.
  yield* requireAddressHeld(token.accountId, token.email)
  const changes = { email: token.email, emailVerified: true }
  const entry = yield* auditEntryOfChanges(
    { kind: "member", id: token.accountId },
    "member.updated",
    { type: "member", id: token.accountId },
    changesBetween(toMember(member), { ...toMember(member), ...changes }, memberAuditFields)
  )
  const moved = yield* (yield* MemberStore)
    .updateAccount(token.accountId, changes, entry)
    // Only the address changes: no username is taken.
    .pipe(Effect.catchTag("DuplicateUsername", (error) => Effect.die(error)))
  if (Option.isSome(moved)) yield* tellAddressChanged(member.email, token.email)
  return moved
})

/**
 * Proves an address with the token mailed to it; no session is needed, the token proves it. A
 * verification link verifies the address the account has, while it still has it; a link asked for
 * to change the address moves the account to it (409 if another account took it meanwhile). The
 * token is used up first, so it serves once, and is worth nothing once anything ended the
 * account's sessions since (a password set, the account disabled). Answers the member in the
 * organisation the link was asked for.
 */
export const verifyEmail = Effect.fnUntraced(function* (input: VerifyEmailInput) {
  const tokenHash = yield* (yield* TokenIssuer).hashOf(input.token)
  const tokens = yield* AccountTokenStore
  const used = yield* Effect.flatMap(tokens.consume("email_verification", tokenHash), (verification) =>
    Option.isSome(verification) ? Effect.succeed(verification) : tokens.consume("email_change", tokenHash)
  )
  if (Option.isNone(used) || !DateTime.isLessThan(yield* DateTime.now, used.value.expiresAt)) {
    return yield* new TokenInvalid()
  }
  const token = used.value
  return yield* Effect.gen(function* () {
    const member = yield* (yield* MemberStore).findById(token.accountId)
    if (Option.isNone(member) || !tokenStillHolds(token, member.value)) return yield* new TokenInvalid()
    const proven =
      token.purpose === "email_change" ? yield* moveTo(token, member.value) : yield* verifyCurrent(token)
    if (Option.isNone(proven)) return yield* new TokenInvalid()
    return toMember(proven.value)
  }).pipe(Effect.provideService(CurrentOrganization, token.organizationId))
})
