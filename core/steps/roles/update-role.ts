import { DateTime, Effect, Option } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { NotFound } from "../../model/errors.ts"
import type { RoleId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { type RoleChanges, roleAuditFields } from "../../model/role.ts"
import { requirePermission } from "../../policy/access.ts"
import {
  isOwnersRole,
  requireAnotherOwner,
  requireHeldWithinCeiling,
  requireNotOwnRole
} from "../../policy/ceiling.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { auditActorOf, auditEntryOfChanges } from "../audit/new-audit-entry.ts"
import { roleView } from "./role-view.ts"

/**
 * Renames, re-keys, deactivates or reactivates a role (merge semantics). A role holding permissions
 * the caller lacks is not theirs to change: deactivating it would lock out those more privileged.
 * Deactivating a role ends its holders' sessions: the role records when, and a session begun before
 * then no longer counts, even once the role is active again. Nobody deactivates their own role, nor
 * the last owners' role.
 */
export const updateRole = Effect.fnUntraced(function* (actor: Principal, id: RoleId, changes: RoleChanges) {
  yield* requirePermission(actor, "team.roles.write")
  const found = yield* (yield* RoleLookup).find(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "role", id: String(id) })
  const current = found.value.role
  if (changes.activeStatus === false) yield* requireNotOwnRole(actor, id)
  yield* requireHeldWithinCeiling(actor, found.value.permissionIds)
  if (changes.activeStatus === false && isOwnersRole(found.value)) yield* requireAnotherOwner({ roleId: id })
  const recorded = changesBetween(current, { ...current, ...changes }, roleAuditFields)
  const entry = yield* auditEntryOfChanges(
    auditActorOf(actor),
    "role.updated",
    { type: "role", id: String(id) },
    recorded
  )
  const deactivation = changes.activeStatus === false ? { deactivatedAt: yield* DateTime.now } : {}
  const updated = yield* (yield* RoleStore).update(id, { ...changes, ...deactivation }, entry)
  // Removed between the read and the write: the same answer as if it had never been there.
  if (Option.isNone(updated)) return yield* new NotFound({ entity: "role", id: String(id) })
  // A change of a role changes nothing it holds: what it holds is as read for the ceiling.
  return roleView({ ...found.value, role: updated.value })
})
