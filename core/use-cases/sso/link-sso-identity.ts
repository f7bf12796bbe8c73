import { DateTime, Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { SsoAccountConflict } from "../../model/sso-errors.ts"
import { type LinkSsoIdentityInput, SsoIdentity } from "../../model/sso-login.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireWithinCeiling } from "../../policy/ceiling.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { SsoLoginStore } from "../../ports/sso-login-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { findConnection } from "../../steps/sso/get-sso-connection.ts"

const linkedElsewhere = () => new SsoAccountConflict({ linkedToAnother: true })

/**
 * Links a member's account to an identity at one of the organisation's connections: what an
 * administrator does for an account that existed before single sign-on, which is never linked by
 * e-mail alone. Whoever may link an identity signs in as the account, so it is an account change
 * like setting its password: `admin.accounts.write`, within the ceiling. The identity signs in as
 * this account from then on, in place of any it signed in as; one linked to another account is
 * never moved (`SsoAccountConflict`).
 */
export const linkSsoIdentity = Effect.fnUntraced(function* (
  actor: Principal,
  memberId: MemberId,
  input: LinkSsoIdentityInput
) {
  yield* requirePermission(actor, "admin.accounts.write")
  const connection = yield* findConnection(actor, input.connectionId)
  const member = yield* (yield* MemberStore).findById(memberId)
  if (Option.isNone(member)) return yield* new NotFound({ entity: "member", id: memberId })
  yield* requireWithinCeiling(actor, member.value.roleId)
  const logins = yield* SsoLoginStore
  const held = yield* logins.findIdentity(connection.id, input.subject)
  if (Option.exists(held, (identity) => identity.accountId !== memberId)) return yield* linkedElsewhere()
  const identity = new SsoIdentity({
    connectionId: connection.id,
    subject: input.subject,
    accountId: memberId,
    organizationId: connection.organizationId,
    createdAt: yield* DateTime.now
  })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "sso.linked",
    { type: "member", id: memberId },
    { connectionId: [null, connection.id], subject: [null, input.subject] }
  )
  yield* logins.unlinkAccount(connection.id, memberId)
  // Another request may have linked it meanwhile: the store refuses to move it.
  if (!(yield* logins.link(identity, entry))) return yield* linkedElsewhere()
  return { connectionId: connection.id, subject: input.subject, memberId, createdAt: identity.createdAt }
})
