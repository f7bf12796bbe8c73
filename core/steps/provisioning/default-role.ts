import { Effect, Option } from "effect"
import { NoDefaultRole } from "../../model/errors.ts"
import { permissionIdOf } from "../../model/permission.ts"
import { permissionsOfRole } from "../../policy/permissions-of-role.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { currentOrganization } from "../organizations/current-organization.ts"

/**
 * The role of members an identity provider provisions, or takes out of a group: the organisation's
 * `defaultRoleId`, else the lowest role holding `team.read` alone, else none (`NoDefaultRole`).
 */
export const defaultRole = Effect.gen(function* () {
  const organization = yield* currentOrganization
  if (organization.defaultRoleId !== undefined) {
    const found = yield* (yield* RoleStore).findById(organization.defaultRoleId)
    if (Option.isSome(found)) return found.value.id
  }
  const readers = yield* (yield* RolePermissionStore).rolesHolding([permissionIdOf("team.read")])
  for (const roleId of [...readers].sort((a, b) => a - b)) {
    if ((yield* permissionsOfRole(roleId)).length === 1) return roleId
  }
  return yield* new NoDefaultRole()
})
