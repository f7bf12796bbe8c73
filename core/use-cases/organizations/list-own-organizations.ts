import { Effect, Option } from "effect"
import type { Principal } from "../../model/principal.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"

/**
 * The caller's memberships with their organisations, oldest first; the operator belongs to none. A
 * membership whose organisation is being deleted is left out.
 */
export const listOwnOrganizations = Effect.fnUntraced(function* (actor: Principal) {
  if (actor._tag !== "Member") return []
  const memberships = yield* (yield* MemberStore).membershipsOf(actor.member.id)
  const organizations = yield* OrganizationStore
  const listed = yield* Effect.forEach(memberships, (membership) =>
    organizations.findById(membership.organizationId).pipe(
      Effect.map(
        Option.map((organization) => ({
          organization,
          roleId: membership.roleId,
          activestatus: membership.activestatus
        }))
      )
    )
  )
  return listed.flatMap(Option.toArray)
})
