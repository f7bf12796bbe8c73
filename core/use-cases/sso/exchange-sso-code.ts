import { DateTime, Effect, Option, type Redacted } from "effect"
import { tokenStillHolds } from "../../model/account-token.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { bySso } from "../../model/session.ts"
import { SsoRefused } from "../../model/sso-errors.ts"
import { canAct } from "../../policy/access.ts"
import { AccountTokenStore } from "../../ports/account-token-store.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { countSignInStart } from "../../steps/auth/count-sign-in-start.ts"
import { startSession } from "../../steps/auth/start-session.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"

/**
 * Exchanges the code a single sign-on ended with for a session: once, within 60 s, while the
 * account's sessions have not been ended since and it may still act. The provider proved the
 * factors: the session asks for no TOTP, and counts as two factors where they are required.
 * `client` may exchange only so many codes per window (429), right or wrong.
 */
export const exchangeSsoCode = Effect.fnUntraced(function* (code: Redacted.Redacted<string>, client: string) {
  yield* countSignInStart("sso_token", client)
  const hash = yield* (yield* TokenIssuer).hashOf(code)
  const taken = yield* (yield* AccountTokenStore).consume("sso_code", hash)
  if (Option.isNone(taken) || DateTime.isLessThanOrEqualTo(taken.value.expiresAt, yield* DateTime.now)) {
    return yield* new SsoRefused({ reason: "state" })
  }
  const token = taken.value
  return yield* Effect.gen(function* () {
    const member = yield* (yield* MemberStore).findById(token.accountId)
    if (Option.isNone(member) || !tokenStillHolds(token, member.value)) {
      return yield* new SsoRefused({ reason: "inactive" })
    }
    const role = yield* (yield* RoleStore).findById(member.value.roleId)
    if (!canAct(member.value, Option.getOrUndefined(role)))
      return yield* new SsoRefused({ reason: "inactive" })
    // An organisation deleted meanwhile signs nobody in.
    const organization = yield* currentOrganization.pipe(
      Effect.catchTag("NotFound", () => Effect.fail(new SsoRefused({ reason: "inactive" })))
    )
    // The provider proved the person when the code was made, within the minute.
    return yield* startSession(member.value, organization, bySso(token.createdAt), { twoFactors: true })
  }).pipe(Effect.provideService(CurrentOrganization, token.organizationId))
})
