import { DateTime, Effect, Option } from "effect"
import type { RoleId } from "../../model/ids.ts"
import { PermissionCatalog } from "../../model/permission.ts"
import { everyPermission } from "../../model/permission-set.ts"
import { NewRole } from "../../model/role.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { RoleStore } from "../../ports/role-store.ts"

/** Makes a built-in `Owner` role in the current organisation, holding nothing yet. */
export const insertOwnerRole = Effect.gen(function* () {
  return yield* (yield* RoleStore).insert(
    new NewRole({ name: "Owner", roleKey: "owner", activeStatus: true, createdAt: yield* DateTime.now })
  )
})

/**
 * Grants the role every permission of Roster's catalog it does not hold yet (all of them once made,
 * and those appended to the catalog since), and the marker of every permission, by which it holds
 * the product's, those declared later included. A role that is gone is given nothing: a grant would
 * make it a record again.
 */
export const grantEveryPermission = Effect.fnUntraced(function* (roleId: RoleId) {
  const found = yield* (yield* RoleLookup).find(roleId)
  if (Option.isNone(found)) return
  const held = new Set<number>(found.value.permissionIds)
  const details = yield* RolePermissionStore
  const now = yield* DateTime.now
  for (const id of [...PermissionCatalog.map((permission) => permission.id), everyPermission]) {
    if (!held.has(id)) yield* details.grant(roleId, id, now)
  }
})
