import { Effect } from "effect"
import { toMember } from "../../model/member.ts"
import type { Principal } from "../../model/principal.ts"
import type { ProvisionedUser } from "../../model/provisioning.ts"
import { requirePermission } from "../../policy/access.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { everyMember } from "../../steps/members/every-member.ts"
import { everyRole } from "../../steps/roles/every-role.ts"

/**
 * Every member of the organisation as an identity provider sees them, oldest first: what the
 * provider filters, sorts and pages through.
 */
export const listProvisionedUsers = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "team.read")
  const members = yield* everyMember()
  const profiles = new Map((yield* (yield* ProvisioningStore).users).map((p) => [p.memberId, p]))
  const roles = new Map((yield* everyRole).map((role) => [role.id, role]))
  return members.map(
    (member): ProvisionedUser => ({
      member: toMember(member),
      profile: profiles.get(member.id),
      role: roles.get(member.roleId)
    })
  )
})
