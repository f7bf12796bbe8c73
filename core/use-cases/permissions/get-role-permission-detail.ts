import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { RolePermissionDetailId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { shownDetail } from "../../model/role-permission-detail.ts"
import { requirePermission } from "../../policy/access.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"

export const getRolePermissionDetail = Effect.fnUntraced(function* (
  actor: Principal,
  id: RolePermissionDetailId
) {
  yield* requirePermission(actor, "team.read")
  const detail = yield* (yield* RolePermissionStore).findById(id)
  if (Option.isNone(detail)) return yield* new NotFound({ entity: "role_permission_detail", id: String(id) })
  return shownDetail(detail.value)
})
