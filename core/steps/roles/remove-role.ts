import { Effect, Option } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { roleAuditFields } from "../../model/role.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireHeldWithinCeiling, requireNotOwnRole } from "../../policy/ceiling.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { auditActorOf, newAuditEntry } from "../audit/new-audit-entry.ts"
import { roleView } from "./role-view.ts"

/**
 * Deletes a role no member holds, and its permission record with it. Whether a member holds it is
 * decided by the store in the same atomic write as the deletion, so a member added at the same
 * moment either makes the deletion fail or finds the role gone, never both.
 */
export const removeRole = Effect.fnUntraced(function* (actor: Principal, id: RoleId) {
  yield* requirePermission(actor, "team.roles.write")
  const found = yield* (yield* RoleLookup).find(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "role", id: String(id) })
  yield* requireNotOwnRole(actor, id)
  yield* requireHeldWithinCeiling(actor, found.value.permissionIds)
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "role.removed",
    { type: "role", id: String(id) },
    changesBetween(found.value.role, null, roleAuditFields)
  )
  const removed = yield* (yield* RoleStore).remove(id, entry)
  if (Option.isNone(removed)) return yield* new NotFound({ entity: "role", id: String(id) })
  yield* (yield* RolePermissionStore).removeOfRole(id)
  return roleView({ ...found.value, role: removed.value })
})
