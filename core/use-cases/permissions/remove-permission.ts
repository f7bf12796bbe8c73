import { DateTime, Effect, Option, Schema } from "effect"
import { Forbidden, NotFound, UnknownPermission } from "../../model/errors.ts"
import { PermissionId, RolePermissionDetailId } from "../../model/ids.ts"
import { findPermission } from "../../model/permission.ts"
import type { Principal } from "../../model/principal.ts"
import { permissionsOf, requirePermission } from "../../policy/access.ts"
import {
  holdsEverything,
  isOwnerRole,
  requireAnotherOwner,
  requireHeldWithinCeiling,
  requireNotOwnRole
} from "../../policy/ceiling.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { auditActorOf, newAuditEntry } from "../audit/new-audit-entry.ts"

export const RemovePermissionInput = Schema.Struct({
  id: RolePermissionDetailId,
  permissionId: PermissionId
})
export type RemovePermissionInput = typeof RemovePermissionInput.Type

/**
 * Idempotent: removing a permission the record does not hold returns the record unchanged. The
 * ceiling applies as to every change of a role: nobody strips a role holding more than they do, nor
 * their own role, nor the last owners' role of the permission that makes its holders owners.
 */
export const removePermission = Effect.fnUntraced(function* (actor: Principal, input: RemovePermissionInput) {
  yield* requirePermission(actor, "team.permissions.write")
  if (findPermission(input.permissionId) === undefined) {
    return yield* new UnknownPermission({ permissionId: input.permissionId })
  }
  if (!permissionsOf(actor).has(input.permissionId)) {
    return yield* new Forbidden({ reason: "revoke_exceeds_own", permissionIds: [input.permissionId] })
  }
  const store = yield* RolePermissionStore
  const current = yield* store.findById(input.id)
  if (Option.isNone(current))
    return yield* new NotFound({ entity: "role_permission_detail", id: String(input.id) })
  const { roleId, permissionIds } = current.value
  if (!permissionIds.includes(input.permissionId)) return current.value
  yield* requireNotOwnRole(actor, roleId)
  yield* requireHeldWithinCeiling(actor, permissionIds)
  if (holdsEverything(permissionIds) && (yield* isOwnerRole(roleId))) yield* requireAnotherOwner({ roleId })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "permission.removed",
    { type: "role_permission_detail", id: String(input.id) },
    { roleId: [roleId, roleId], permissionId: [input.permissionId, null] }
  )
  const updated = yield* store.revoke(current.value, input.permissionId, yield* DateTime.now, entry)
  if (Option.isNone(updated))
    return yield* new NotFound({ entity: "role_permission_detail", id: String(input.id) })
  return updated.value
})
