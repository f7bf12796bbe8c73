import { DateTime, Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { groupProfileOf, type ProvisionedGroupInput } from "../../model/provisioning.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireWithinCeiling } from "../../policy/ceiling.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { setGroupMembers } from "../../steps/provisioning/move-members.ts"
import { updateRole } from "../../steps/roles/update-role.ts"

/**
 * An identity provider states what a group is now: the role's name and who holds it. The role key
 * stays, so what refers to it keeps working after a rename.
 */
export const replaceProvisionedGroup = Effect.fnUntraced(function* (
  actor: Principal,
  id: RoleId,
  input: ProvisionedGroupInput
) {
  yield* requirePermission(actor, "team.roles.write")
  const role = yield* (yield* RoleStore).findById(id)
  if (Option.isNone(role)) return yield* new NotFound({ entity: "role", id: String(id) })
  yield* requireWithinCeiling(actor, id)
  if (role.value.name !== input.displayName) yield* updateRole(actor, id, { name: input.displayName })
  yield* setGroupMembers(actor, id, input.memberIds)
  yield* (yield* ProvisioningStore).putGroup(groupProfileOf(input, id, yield* DateTime.now))
})
