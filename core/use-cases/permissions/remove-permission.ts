import { DateTime, Effect, Option, Schema } from "effect"
import { Forbidden, NotFound } from "../../model/errors.ts"
import { RolePermissionDetailId } from "../../model/ids.ts"
import { PermissionRef } from "../../model/permission.ts"
import type { Principal } from "../../model/principal.ts"
import { shownDetail } from "../../model/role-permission-detail.ts"
import { permissionsOf, requirePermission } from "../../policy/access.ts"
import {
  holdsEverything,
  isOwnerRole,
  requireAnotherOwner,
  requireHeldWithinCeiling,
  requireNotOwnRole
} from "../../policy/ceiling.ts"
import { grantablePermission } from "../../policy/permission-catalog.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"

export const RemovePermissionInput = Schema.Struct({
  id: RolePermissionDetailId,
  permissionId: PermissionRef
})
export type RemovePermissionInput = typeof RemovePermissionInput.Type

/**
 * Idempotent: removing a permission the record does not hold returns the record unchanged. The
 * ceiling applies as to every change of a role: nobody strips a role holding more than they do, nor
 * their own role, nor the last owners' role of the permission that makes its holders owners.
 */
export const removePermission = Effect.fnUntraced(function* (actor: Principal, input: RemovePermissionInput) {
  yield* requirePermission(actor, "team.permissions.write")
  const permissionId = (yield* grantablePermission(input.permissionId)).id
  if (!permissionsOf(actor).has(permissionId)) {
    return yield* new Forbidden({ reason: "revoke_exceeds_own", permissionIds: [permissionId] })
  }
  const store = yield* RolePermissionStore
  const current = yield* store.findById(input.id)
  if (Option.isNone(current))
    return yield* new NotFound({ entity: "role_permission_detail", id: String(input.id) })
  const { roleId, permissionIds } = current.value
  if (!permissionIds.includes(permissionId)) return shownDetail(current.value)
  yield* requireNotOwnRole(actor, roleId)
  yield* requireHeldWithinCeiling(actor, permissionIds)
  if (holdsEverything(permissionIds) && (yield* isOwnerRole(roleId))) yield* requireAnotherOwner({ roleId })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "permission.removed",
    { type: "role_permission_detail", id: String(input.id) },
    { roleId: [roleId, roleId], permissionId: [permissionId, null] }
  )
  const updated = yield* store.revoke(current.value, permissionId, yield* DateTime.now, entry)
  if (Option.isNone(updated))
    return yield* new NotFound({ entity: "role_permission_detail", id: String(input.id) })
  return shownDetail(updated.value)
})
