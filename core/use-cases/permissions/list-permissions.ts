import { Effect } from "effect"
import { PermissionCatalog } from "../../model/permission.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"

export const listPermissions = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "team.read")
  return PermissionCatalog
})
