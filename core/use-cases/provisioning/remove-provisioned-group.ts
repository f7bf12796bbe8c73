import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireWithinCeiling } from "../../policy/ceiling.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { everyMember } from "../../steps/members/every-member.ts"
import { moveToDefaultRole } from "../../steps/provisioning/move-members.ts"
import { removeRole } from "../../steps/roles/remove-role.ts"

/**
 * An identity provider deletes a group: its members move to the default role first, so the role
 * is never refused as held, then the role goes (see `removeRole`).
 */
export const removeProvisionedGroup = Effect.fnUntraced(function* (actor: Principal, id: RoleId) {
  yield* requirePermission(actor, "team.roles.write")
  const role = yield* (yield* RoleStore).findById(id)
  if (Option.isNone(role)) return yield* new NotFound({ entity: "role", id: String(id) })
  yield* requireWithinCeiling(actor, id)
  const holders = yield* everyMember({ roleId: id })
  if (holders.length > 0)
    yield* moveToDefaultRole(
      actor,
      id,
      holders.map((member) => member.id)
    )
  yield* removeRole(actor, id)
  yield* (yield* ProvisioningStore).removeGroup(id)
})
