import { DateTime } from "effect"
import { Forbidden, Unauthenticated } from "../../model/errors.ts"
import { canAct } from "../../policy/access.ts"
import type { SessionWithMember } from "../../ports/session-lookup.ts"

/**
 * Why a session found with its member cannot act at `now`, or undefined when it can: expired, from
 * before its member's last epoch, from before its role's deactivation (all of which end it for
 * good), or its member or role not active (which a reactivation undoes).
 */
export const sessionRefusal = (
  { session, member, role }: SessionWithMember,
  now: DateTime.Utc
): Unauthenticated | Forbidden | undefined => {
  if (!DateTime.isLessThan(now, session.expiresAt)) return new Unauthenticated({ reason: "expired" })
  if (session.memberEpoch !== member.sessionEpoch) return new Unauthenticated({ reason: "invalid" })
  if (role?.deactivatedAt !== undefined && !DateTime.isGreaterThan(session.createdAt, role.deactivatedAt))
    return new Unauthenticated({ reason: "invalid" })
  if (!canAct(member, role)) return new Forbidden({ reason: "inactive" })
  return undefined
}
