import { DateTime, Effect, Option, Schema } from "effect"
import type { AuditEntry } from "../../model/audit.ts"
import { Forbidden, UnknownPermission, UnknownRole } from "../../model/errors.ts"
import { PermissionId, RoleId } from "../../model/ids.ts"
import { findPermission } from "../../model/permission.ts"
import type { Principal } from "../../model/principal.ts"
import type { RolePermissionDetail } from "../../model/role-permission-detail.ts"
import { permissionsOf, requirePermission } from "../../policy/access.ts"
import { requireWithinCeiling } from "../../policy/ceiling.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { auditActorOf, auditEntryFor, relayAudit } from "../audit/new-audit-entry.ts"

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
  if (Option.isNone(yield* (yield* RoleStore).findById(input.roleId))) {
    return yield* new UnknownRole({ roleId: input.roleId })
  }
  // Granting what one holds to a role holding more would still be changing a role above one's own.
  yield* requireWithinCeiling(actor, input.roleId)
  const entryFor = yield* auditEntryFor(auditActorOf(actor), "permission.granted")
  // A new record's id is the store's to allocate: the entry is made with the record.
  let entry: AuditEntry | undefined
  const entryOf = (detail: RolePermissionDetail) => {
    entry = entryFor(
      { type: "role_permission_detail", id: String(detail.id) },
      { permissionId: [null, input.permissionId] }
    )
    return entry
  }
  const granted = yield* (yield* RolePermissionStore).grant(
    input.roleId,
    input.permissionId,
    yield* DateTime.now,
    entryOf
  )
  // None made: the record held the permission already, so nothing changed.
  yield* relayAudit(entry)
  return granted
})
