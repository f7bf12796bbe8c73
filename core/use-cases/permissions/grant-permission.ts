import { DateTime, Effect, Option, Schema } from "effect"
import { Forbidden, UnknownPermission, UnknownRole } from "../../model/errors.ts"
import { PermissionId, RoleId } from "../../model/ids.ts"
import { findPermission } from "../../model/permission.ts"
import type { Principal } from "../../model/principal.ts"
import { permissionsOf, requirePermission } from "../../policy/access.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { RoleStore } from "../../ports/role-store.ts"

export const GrantPermissionInput = Schema.Struct({ roleId: RoleId, permissionId: PermissionId })
export type GrantPermissionInput = typeof GrantPermissionInput.Type

export const grantPermission = Effect.fnUntraced(function* (actor: Principal, input: GrantPermissionInput) {
  yield* requirePermission(actor, "team.permissions.write")
  if (findPermission(input.permissionId) === undefined) {
    return yield* new UnknownPermission({ permissionId: input.permissionId })
  }
  if (!permissionsOf(actor).has(input.permissionId)) {
    return yield* new Forbidden({ reason: "grant_exceeds_own", permissionIds: [input.permissionId] })
  }
  if (Option.isNone(yield* (yield* RoleStore).findById(input.roleId))) {
    return yield* new UnknownRole({ roleId: input.roleId })
  }
  return yield* (yield* RolePermissionStore).grant(input.roleId, input.permissionId, yield* DateTime.now)
})
