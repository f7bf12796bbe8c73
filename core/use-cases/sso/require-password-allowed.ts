import { Effect, Option } from "effect"
import type { MemberRecord } from "../../model/member.ts"
import type { Organization } from "../../model/organization.ts"
import { domainOfEmail } from "../../model/sso-domain.ts"
import { SsoRequired } from "../../model/sso-errors.ts"
import { isOwner } from "../../policy/ceiling.ts"
import { DomainStore } from "../../ports/domain-store.ts"

/**
 * Refuses a password (a login, a reset, an invitation accepted by password) to a member the
 * organisation holds to single sign-on: it requires it, and their e-mail is in a domain it verified.
 * Owners keep their password: the way in when the provider fails.
 */
export const requirePasswordAllowed = Effect.fnUntraced(function* (
  member: MemberRecord,
  organization: Organization
) {
  if (organization.ssoRequired !== true) return
  const held = yield* (yield* DomainStore).findVerified(domainOfEmail(member.email))
  if (Option.isNone(held) || held.value.organizationId !== organization.id) return
  if (yield* isOwner(member)) return
  return yield* new SsoRequired()
})
