import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { requireWithinOwn } from "../permissions/within-own.ts"

/**
 * Deletes a role no member holds, and its permission record with it. Whether a member holds it is
 * decided by the store in the same atomic write as the deletion, so a member added at the same
 * moment either makes the deletion fail or finds the role gone, never both.
 */
export const removeRole = Effect.fnUntraced(function* (actor: Principal, id: RoleId) {
  yield* requirePermission(actor, "team.roles.write")
  const roles = yield* RoleStore
  if (Option.isNone(yield* roles.findById(id))) return yield* new NotFound({ entity: "role", id: String(id) })
  yield* requireWithinOwn(actor, id)
  const removed = yield* roles.remove(id)
  if (Option.isNone(removed)) return yield* new NotFound({ entity: "role", id: String(id) })
  yield* (yield* RolePermissionStore).removeOfRole(id)
  return removed.value
})
