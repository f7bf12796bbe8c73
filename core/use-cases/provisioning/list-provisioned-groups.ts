import { Effect } from "effect"
import type { MemberId, RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import type { ProvisionedGroup } from "../../model/provisioning.ts"
import { requirePermission } from "../../policy/access.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { everyMember } from "../../steps/members/every-member.ts"
import { everyRole } from "../../steps/roles/every-role.ts"

/** Every role of the organisation as a group of its holders, by id. */
export const listProvisionedGroups = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "team.read")
  const holders = new Map<RoleId, Array<MemberId>>()
  for (const member of yield* everyMember()) {
    const ids = holders.get(member.roleId)
    if (ids === undefined) holders.set(member.roleId, [member.id])
    else ids.push(member.id)
  }
  const profiles = new Map((yield* (yield* ProvisioningStore).groups).map((p) => [p.roleId, p]))
  return (yield* everyRole).map(
    (role): ProvisionedGroup => ({
      role,
      memberIds: holders.get(role.id) ?? [],
      profile: profiles.get(role.id)
    })
  )
})
