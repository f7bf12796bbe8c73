import { DateTime, Effect, Schema } from "effect"
import { changesBetween } from "../../model/audit.ts"
import type { Principal } from "../../model/principal.ts"
import { NewRole, type Role, RoleKey, RoleName, roleAuditFields } from "../../model/role.ts"
import { requirePermission } from "../../policy/access.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { auditActorOf, auditEntryFor } from "../audit/new-audit-entry.ts"
import { roleView } from "./role-view.ts"

export const AddRoleInput = Schema.Struct({
  name: RoleName,
  roleKey: RoleKey,
  activeStatus: Schema.optional(Schema.Boolean)
})
export type AddRoleInput = typeof AddRoleInput.Type

export const addRole = Effect.fnUntraced(function* (actor: Principal, input: AddRoleInput) {
  yield* requirePermission(actor, "team.roles.write")
  const entryFor = yield* auditEntryFor(auditActorOf(actor), "role.added")
  // The store allocates the id, so the entry is made with the created role.
  const entryOf = (created: Role) =>
    entryFor({ type: "role", id: String(created.id) }, changesBetween(null, created, roleAuditFields))
  const created = yield* (yield* RoleStore).insert(
    new NewRole({
      name: input.name,
      roleKey: input.roleKey,
      activeStatus: input.activeStatus ?? true,
      createdAt: yield* DateTime.now
    }),
    entryOf
  )
  return roleView({ role: created, permissionIds: [] })
})
