import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import type { ProvisionedGroup } from "../../model/provisioning.ts"
import { requirePermission } from "../../policy/access.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { everyMember } from "../../steps/members/every-member.ts"

/** A role as an identity provider sees it: a group of the members holding it. */
export const getProvisionedGroup = Effect.fnUntraced(function* (actor: Principal, id: RoleId) {
  yield* requirePermission(actor, "team.read")
  const role = yield* (yield* RoleStore).findById(id)
  if (Option.isNone(role)) return yield* new NotFound({ entity: "role", id: String(id) })
  const holders = yield* everyMember({ roleId: id })
  const group: ProvisionedGroup = {
    role: role.value,
    memberIds: holders.map((member) => member.id),
    profile: Option.getOrUndefined(yield* (yield* ProvisioningStore).findGroup(id))
  }
  return group
})
