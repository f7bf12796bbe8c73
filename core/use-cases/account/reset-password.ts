import { DateTime, Effect, Option, Schema } from "effect"
import { tokenStillHolds } from "../../model/account-token.ts"
import { TokenInvalid } from "../../model/errors.ts"
import { Password } from "../../model/member.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { AccountTokenStore } from "../../ports/account-token-store.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PasswordHasher } from "../../ports/password-hasher.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"
import { requirePasswordAllowed } from "../../steps/sso/require-password-allowed.ts"

export const ResetPasswordInput = Schema.Struct({
  token: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256))),
  newPassword: Schema.RedactedFromValue(Password)
})
export type ResetPasswordInput = typeof ResetPasswordInput.Type

/**
 * Sets a new password with a mailed reset token and ends every session of the account, everywhere.
 * The token is looked up before the password is hashed (a wrong one costs no hash) and used up
 * just before the write: of two uses at once, one sets the password. A token is worth nothing once
 * the account's address changed, its password was set by any path, or it was disabled (even if
 * enabled again), or once it left the organisation the link was asked in. Recorded there. A member
 * the organisation holds to single sign-on is refused (`SsoRequired`).
 */
export const resetPassword = Effect.fnUntraced(function* (input: ResetPasswordInput) {
  const tokenHash = yield* (yield* TokenIssuer).hashOf(input.token)
  const tokens = yield* AccountTokenStore
  const found = yield* tokens.find("password_reset", tokenHash)
  const now = yield* DateTime.now
  if (Option.isNone(found) || !DateTime.isLessThan(now, found.value.expiresAt)) {
    return yield* new TokenInvalid()
  }
  const token = found.value
  const members = yield* MemberStore
  yield* Effect.gen(function* () {
    const member = yield* members.findById(token.accountId)
    if (
      Option.isNone(member) ||
      member.value.email !== token.email ||
      !tokenStillHolds(token, member.value)
    ) {
      return yield* new TokenInvalid()
    }
    const organization = yield* currentOrganization.pipe(
      Effect.catchTag("NotFound", () => Effect.fail(new TokenInvalid()))
    )
    yield* requirePasswordAllowed(member.value, organization)
    const passwordHash = yield* (yield* PasswordHasher).hash(input.newPassword)
    if (Option.isNone(yield* tokens.consume("password_reset", tokenHash))) return yield* new TokenInvalid()
    const entry = yield* newAuditEntry({ kind: "member", id: token.accountId }, "password.reset", {
      type: "member",
      id: token.accountId
    })
    const set = yield* members.setPassword(token.accountId, passwordHash, entry)
    if (Option.isNone(set)) return yield* new TokenInvalid()
    yield* (yield* SessionStore).revokeAllOf(token.accountId)
  }).pipe(Effect.provideService(CurrentOrganization, token.organizationId))
})
