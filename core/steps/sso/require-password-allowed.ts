import { Effect, Option } from "effect"
import type { MemberRecord } from "../../model/member.ts"
import type { Organization } from "../../model/organization.ts"
import { domainOfEmail } from "../../model/sso-domain.ts"
import { SsoRequired } from "../../model/sso-errors.ts"
import { isOwner } from "../../policy/ceiling.ts"
import { DomainStore } from "../../ports/domain-store.ts"

/** Whether the organisation verified the address's domain. */
export const verifiedBy = Effect.fnUntraced(function* (email: string, organization: Organization) {
  const held = yield* (yield* DomainStore).findVerified(domainOfEmail(email))
  return Option.isSome(held) && held.value.organizationId === organization.id
})

/**
 * Whether the organisation holds the member to single sign-on: it requires it, and their e-mail is
 * in a domain it verified. Owners are not: their password is the way in when the provider fails.
 */
export const heldToSso = Effect.fnUntraced(function* (member: MemberRecord, organization: Organization) {
  if (organization.ssoRequired !== true) return false
  if (!(yield* verifiedBy(member.email, organization))) return false
  return !(yield* isOwner(member))
})

/** Refuses a password (a login, a reset, an invitation accepted by password) to a member held to single sign-on. */
export const requirePasswordAllowed = Effect.fnUntraced(function* (
  member: MemberRecord,
  organization: Organization
) {
  if (yield* heldToSso(member, organization)) return yield* new SsoRequired()
})
