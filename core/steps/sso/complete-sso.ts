import { DateTime, Duration, Effect, Option } from "effect"
import { AccountToken } from "../../model/account-token.ts"
import { Forbidden } from "../../model/errors.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { bySso } from "../../model/session.ts"
import type { SsoConnectionRecord } from "../../model/sso-connection.ts"
import { type ProvenIdentity, ssoCodeSeconds } from "../../model/sso-login.ts"
import { canAct } from "../../policy/access.ts"
import { AccountTokenStore } from "../../ports/account-token-store.ts"
import { AuditLog } from "../../ports/audit-log.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { newAuditEntry } from "../audit/new-audit-entry.ts"
import { startSession } from "../auth/start-session.ts"
import { currentOrganization } from "../organizations/current-organization.ts"
import { memberSigningIn } from "./member-signing-in.ts"

/**
 * Ends a sign-in the provider proved, in the connection's organisation: the member who signs in
 * (linked, provisioned or made just in time), refused like a password login when their account,
 * membership or role cannot act; recorded as `sso.login`. Answers a session at once for the
 * console (`openSession`), else a code, used once within 60 s, that `exchangeSsoCode` turns into
 * one: whoever holds it, as a product's back end has no cookie of the browser.
 */
export const completeSso = Effect.fnUntraced(
  function* (connection: SsoConnectionRecord, proven: ProvenIdentity, openSession: boolean) {
    const { member, joined } = yield* memberSigningIn(connection, proven)
    const role = yield* (yield* RoleStore).findById(member.roleId)
    if (!canAct(member, Option.getOrUndefined(role))) return yield* new Forbidden({ reason: "inactive" })
    const organization = yield* currentOrganization
    const entry = yield* newAuditEntry(
      { kind: "sso", id: connection.id },
      "sso.login",
      { type: "member", id: member.id },
      { connectionId: [null, connection.id], ...(joined ? { justInTime: [null, true] } : {}) }
    )
    yield* (yield* AuditLog).record(entry)
    if (openSession)
      return { session: yield* startSession(member, organization, bySso(), { twoFactors: true }) }
    const { token, hash } = yield* (yield* TokenIssuer).issue("sso_code")
    const now = yield* DateTime.now
    yield* (yield* AccountTokenStore).issue(
      new AccountToken({
        tokenHash: hash,
        purpose: "sso_code",
        accountId: member.id,
        organizationId: organization.id,
        email: member.email,
        createdAt: now,
        expiresAt: DateTime.addDuration(now, Duration.seconds(ssoCodeSeconds)),
        triesLeft: 1,
        sessionEpoch: member.sessionEpoch
      })
    )
    return { code: token }
  },
  (effect, connection) => Effect.provideService(effect, CurrentOrganization, connection.organizationId)
)
