import { DateTime, Effect, Option, type Redacted } from "effect"
import { Forbidden, Unauthenticated } from "../../model/errors.ts"
import { toMember } from "../../model/member.ts"
import { masterPrincipal, openLocalPrincipal, type Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import type { Session } from "../../model/session.ts"
import { canAct } from "../../policy/access.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { SessionTokens } from "../../ports/session-tokens.ts"
import { permissionsOfRole } from "../permissions/permissions-of-role.ts"

/** Turns the caller's bearer token (or its absence) into a principal with its permissions. */
export const authenticate = Effect.fnUntraced(function* (bearer: Option.Option<Redacted.Redacted<string>>) {
  const { masterKeyHash } = yield* AuthSettings
  if (Option.isNone(bearer)) {
    if (Option.isNone(masterKeyHash)) return openLocalPrincipal
    return yield* new Unauthenticated({ reason: "missing" })
  }
  const tokens = yield* SessionTokens
  const tokenHash = yield* tokens.hashOf(bearer.value)
  if (Option.isSome(masterKeyHash) && (yield* tokens.sameHash(tokenHash, masterKeyHash.value))) {
    return masterPrincipal
  }
  const session = yield* (yield* SessionStore).find(tokenHash)
  if (Option.isNone(session)) return yield* new Unauthenticated({ reason: "invalid" })
  const now = yield* DateTime.now
  if (!DateTime.isLessThan(now, session.value.expiresAt))
    return yield* new Unauthenticated({ reason: "expired" })
  return yield* sessionMember(session.value).pipe(
    Effect.provideService(CurrentOrganization, session.value.organizationId)
  )
})

/** The member a live session acts as, in the session's organisation. */
const sessionMember = Effect.fnUntraced(function* (session: Session) {
  const member = yield* (yield* MemberStore).findById(session.memberId)
  if (Option.isNone(member)) return yield* new Unauthenticated({ reason: "invalid" })
  if (session.memberEpoch !== member.value.sessionEpoch) {
    return yield* new Unauthenticated({ reason: "invalid" })
  }
  const role = yield* (yield* RoleStore).findById(member.value.roleId)
  if (!canAct(member.value, Option.getOrUndefined(role))) return yield* new Forbidden({ reason: "inactive" })
  return {
    _tag: "Member",
    member: toMember(member.value),
    permissionIds: yield* permissionsOfRole(member.value.roleId),
    sessionTokenHash: session.tokenHash,
    organizationId: session.organizationId
  } satisfies Principal as Principal
})
