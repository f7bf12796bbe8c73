import { DateTime, Effect, Option, Schema } from "effect"
import type { AuditEntry } from "../../model/audit.ts"
import { Forbidden, UnknownRole } from "../../model/errors.ts"
import { RoleId } from "../../model/ids.ts"
import { PermissionRef } from "../../model/permission.ts"
import type { Principal } from "../../model/principal.ts"
import type { RolePermissionDetail } from "../../model/role-permission-detail.ts"
import { shownDetail } from "../../model/role-permission-detail.ts"
import { permissionsOf, requirePermission } from "../../policy/access.ts"
import { requireHeldWithinCeiling } from "../../policy/ceiling.ts"
import { expandedPermissions, grantablePermission } from "../../policy/permission-catalog.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { auditActorOf, auditEntryFor } from "../../steps/audit/new-audit-entry.ts"

/** `permissionId` a permission's id (a JSON number) or its key (a string), Roster's or the product's. */
export const GrantPermissionInput = Schema.Struct({ roleId: RoleId, permissionId: PermissionRef })
export type GrantPermissionInput = typeof GrantPermissionInput.Type

export const grantPermission = Effect.fnUntraced(function* (actor: Principal, input: GrantPermissionInput) {
  yield* requirePermission(actor, "team.permissions.write")
  // Read from the store now: a permission retiring or retired is granted no more, on any instance.
  const permissionId = (yield* grantablePermission(input.permissionId)).id
  if (!permissionsOf(actor).has(permissionId)) {
    return yield* new Forbidden({ reason: "grant_exceeds_own", permissionIds: [permissionId] })
  }
  const role = yield* (yield* RoleLookup).find(input.roleId)
  if (Option.isNone(role)) return yield* new UnknownRole({ roleId: input.roleId })
  // Granting what one holds to a role holding more would still be changing a role above one's own.
  yield* requireHeldWithinCeiling(actor, role.value.permissionIds)
  const store = yield* RolePermissionStore
  // Held already, as just read: the record is answered as it is, and nothing is written.
  // The Owner role holds every permission by its marker: it is given nothing more.
  if ((yield* expandedPermissions(role.value.permissionIds)).has(permissionId)) {
    const held = yield* store.findByRole(input.roleId)
    if (Option.isSome(held) && (yield* expandedPermissions(held.value.permissionIds)).has(permissionId))
      return shownDetail(held.value)
  }
  const entryFor = yield* auditEntryFor(auditActorOf(actor), "permission.granted")
  // A new record's id is the store's to allocate: the entry is made with the record.
  let entry: AuditEntry | undefined
  const entryOf = (detail: RolePermissionDetail) => {
    entry = entryFor(
      { type: "role_permission_detail", id: String(detail.id) },
      // The role, unchanged, so that the entry (and its event) says whose permissions changed.
      { roleId: [input.roleId, input.roleId], permissionId: [null, permissionId] }
    )
    return entry
  }
  const granted = yield* store.grant(input.roleId, permissionId, yield* DateTime.now, entryOf)
  // Deleted since it was read: nothing was granted.
  if (Option.isNone(granted)) return yield* new UnknownRole({ roleId: input.roleId })
  // None made: the record held the permission already, so nothing changed.
  return shownDetail(granted.value)
})
