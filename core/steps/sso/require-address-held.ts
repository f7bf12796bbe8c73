import { Effect, Option } from "effect"
import type { MemberId } from "../../model/ids.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { SsoRequired } from "../../model/sso-errors.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { heldToSso, verifiedBy } from "./require-password-allowed.ts"

/**
 * Refuses to move one's own address out of the verified domains of an organisation that holds the
 * account to single sign-on (`heldToSso`, owners aside), in any organisation it belongs to: else the
 * password would sign in again where only the provider may.
 */
export const requireAddressHeld = Effect.fnUntraced(function* (accountId: MemberId, email: string) {
  const organizations = yield* OrganizationStore
  for (const membership of yield* (yield* MemberStore).membershipsOf(accountId)) {
    const organization = yield* organizations.findById(membership.organizationId)
    if (Option.isNone(organization)) continue
    const refused = yield* Effect.gen(function* () {
      const member = yield* (yield* MemberStore).findById(accountId)
      if (Option.isNone(member) || !(yield* heldToSso(member.value, organization.value))) return false
      return !(yield* verifiedBy(email, organization.value))
    }).pipe(Effect.provideService(CurrentOrganization, organization.value.id))
    if (refused) return yield* new SsoRequired()
  }
})
