import { DateTime, Effect, Schema } from "effect"
import type { Principal } from "../../model/principal.ts"
import { NewRole, RoleKey, RoleName } from "../../model/role.ts"
import { requirePermission } from "../../policy/access.ts"
import { RoleStore } from "../../ports/role-store.ts"

export const AddRoleInput = Schema.Struct({
  name: RoleName,
  roleKey: RoleKey,
  activeStatus: Schema.optional(Schema.Boolean)
})
export type AddRoleInput = typeof AddRoleInput.Type

export const addRole = Effect.fnUntraced(function* (actor: Principal, input: AddRoleInput) {
  yield* requirePermission(actor, "team.roles.write")
  return yield* (yield* RoleStore).insert(
    new NewRole({
      name: input.name,
      roleKey: input.roleKey,
      activeStatus: input.activeStatus ?? true,
      createdAt: yield* DateTime.now
    })
  )
})
