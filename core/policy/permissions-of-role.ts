import { Effect, Option } from "effect"
import type { PermissionId, RoleId } from "../model/ids.ts"
import { RolePermissionStore } from "../ports/role-permission-store.ts"

/** The permissions a role holds; a role without a record holds none. */
export const permissionsOfRole = Effect.fnUntraced(function* (roleId: RoleId) {
  const detail = yield* (yield* RolePermissionStore).findByRole(roleId)
  return Option.match(detail, {
    onNone: (): ReadonlyArray<PermissionId> => [],
    onSome: (found) => found.permissionIds
  })
})
