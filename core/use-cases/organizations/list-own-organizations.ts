import { Effect, Option } from "effect"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { currentOrganization } from "./current-organization.ts"

/** The caller's memberships with their organisations; the operator belongs to none. */
export const listOwnOrganizations = Effect.fnUntraced(function* (actor: Principal) {
  if (actor._tag !== "Member") return []
  const membership = yield* (yield* MemberStore)
    .findById(actor.member.id)
    .pipe(Effect.provideService(CurrentOrganization, actor.organizationId))
  if (Option.isNone(membership)) return []
  const organization = yield* currentOrganization.pipe(
    Effect.provideService(CurrentOrganization, actor.organizationId)
  )
  return [{ organization, roleId: membership.value.roleId, activestatus: membership.value.activestatus }]
})
