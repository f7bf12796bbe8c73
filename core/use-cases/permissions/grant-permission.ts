import { DateTime, Effect, Option, Schema } from "effect"
import type { AuditEntry } from "../../model/audit.ts"
import { Forbidden, UnknownPermission, UnknownRole } from "../../model/errors.ts"
import { PermissionId, RoleId } from "../../model/ids.ts"
import { findPermission } from "../../model/permission.ts"
import type { Principal } from "../../model/principal.ts"
import type { RolePermissionDetail } from "../../model/role-permission-detail.ts"
import { permissionsOf, requirePermission } from "../../policy/access.ts"
import { requireHeldWithinCeiling } from "../../policy/ceiling.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { auditActorOf, auditEntryFor } from "../audit/new-audit-entry.ts"

export const GrantPermissionInput = Schema.Struct({ roleId: RoleId, permissionId: PermissionId })
export type GrantPermissionInput = typeof GrantPermissionInput.Type

export const grantPermission = Effect.fnUntraced(function* (actor: Principal, input: GrantPermissionInput) {
  yield* requirePermission(actor, "team.permissions.write")
  if (findPermission(input.permissionId) === undefined) {
    return yield* new UnknownPermission({ permissionId: input.permissionId })
  }
  if (!permissionsOf(actor).has(input.permissionId)) {
    return yield* new Forbidden({ reason: "grant_exceeds_own", permissionIds: [input.permissionId] })
  }
  const role = yield* (yield* RoleLookup).find(input.roleId)
  if (Option.isNone(role)) return yield* new UnknownRole({ roleId: input.roleId })
  // Granting what one holds to a role holding more would still be changing a role above one's own.
  yield* requireHeldWithinCeiling(actor, role.value.permissionIds)
  const store = yield* RolePermissionStore
  // Held already, as just read: the record is answered as it is, and nothing is written.
  if (role.value.permissionIds.includes(input.permissionId)) {
    const held = yield* store.findByRole(input.roleId)
    if (Option.isSome(held) && held.value.permissionIds.includes(input.permissionId)) return held.value
  }
  const entryFor = yield* auditEntryFor(auditActorOf(actor), "permission.granted")
  // A new record's id is the store's to allocate: the entry is made with the record.
  let entry: AuditEntry | undefined
  const entryOf = (detail: RolePermissionDetail) => {
    entry = entryFor(
      { type: "role_permission_detail", id: String(detail.id) },
      // The role, unchanged, so that the entry (and its event) says whose permissions changed.
      { roleId: [input.roleId, input.roleId], permissionId: [null, input.permissionId] }
    )
    return entry
  }
  const granted = yield* store.grant(input.roleId, input.permissionId, yield* DateTime.now, entryOf)
  // Deleted since it was read: nothing was granted.
  if (Option.isNone(granted)) return yield* new UnknownRole({ roleId: input.roleId })
  // None made: the record held the permission already, so nothing changed.
  return granted.value
})
