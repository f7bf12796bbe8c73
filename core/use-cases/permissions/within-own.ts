import { Effect } from "effect"
import { Forbidden } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import { isSubsetOf } from "../../model/permission-set.ts"
import type { Principal } from "../../model/principal.ts"
import { permissionsOf } from "../../policy/access.ts"
import { permissionsOfRole } from "./permissions-of-role.ts"

/**
 * Refuses when `roleId` holds a permission the actor lacks: nobody may act on, or place a member
 * in, a role more privileged than their own.
 */
export const requireWithinOwn = Effect.fnUntraced(function* (actor: Principal, roleId: RoleId) {
  const held = yield* permissionsOfRole(roleId)
  if (!isSubsetOf(held, permissionsOf(actor))) {
    return yield* new Forbidden({ reason: "role_exceeds_own", permissionIds: held })
  }
})
