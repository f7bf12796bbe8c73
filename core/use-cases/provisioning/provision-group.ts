import { DateTime, Effect, Option } from "effect"
import type { Principal } from "../../model/principal.ts"
import { groupProfileOf, type ProvisionedGroupInput } from "../../model/provisioning.ts"
import { roleKeyFrom, withSuffix } from "../../model/provisioning-names.ts"
import { requirePermission } from "../../policy/access.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { setGroupMembers } from "../../steps/provisioning/move-members.ts"
import { addRole } from "../../steps/roles/add-role.ts"

/** A new role named `name`, its key made from the name and numbered when another role has it. */
const addNamedRole = Effect.fnUntraced(function* (actor: Principal, name: string) {
  const base = roleKeyFrom(name)
  for (let attempt = 1; ; attempt++) {
    const roleKey = attempt === 1 ? base : withSuffix(base, String(attempt))
    const added = yield* addRole(actor, { name, roleKey }).pipe(
      Effect.map(Option.some),
      Effect.catchTag("DuplicateRoleKey", (taken) => (attempt < 20 ? Effect.succeedNone : Effect.fail(taken)))
    )
    if (Option.isSome(added)) return added.value
  }
})

/**
 * An identity provider creates a group: a new role, holding no permission until an administrator
 * grants some, with the members named moved into it (see `setGroupMembers`).
 */
export const provisionGroup = Effect.fnUntraced(function* (actor: Principal, input: ProvisionedGroupInput) {
  yield* requirePermission(actor, "team.roles.write")
  const role = yield* addNamedRole(actor, input.displayName)
  yield* setGroupMembers(actor, role.id, input.memberIds)
  yield* (yield* ProvisioningStore).putGroup(groupProfileOf(input, role.id, yield* DateTime.now))
  return role.id
})
