import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { shownDetail } from "../../model/role-permission-detail.ts"
import { requirePermission } from "../../policy/access.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { RoleStore } from "../../ports/role-store.ts"

/**
 * A role's permission record, found by the role. A role nothing was ever granted to has none yet:
 * NotFound names the record, and a role that is not there is NotFound as a role.
 */
export const getRolePermissions = Effect.fnUntraced(function* (actor: Principal, roleId: RoleId) {
  yield* requirePermission(actor, "team.read")
  const record = yield* (yield* RolePermissionStore).findByRole(roleId)
  if (Option.isSome(record)) return shownDetail(record.value)
  if (Option.isNone(yield* (yield* RoleStore).findById(roleId)))
    return yield* new NotFound({ entity: "role", id: String(roleId) })
  return yield* new NotFound({ entity: "role_permission_detail", id: `of role ${roleId}` })
})
