import { DateTime, Effect, Schema } from "effect"
import { AuditEntry, changesBetween } from "../../model/audit.ts"
import type { Principal } from "../../model/principal.ts"
import { NewRole, type Role, RoleKey, RoleName, roleAuditFields } from "../../model/role.ts"
import { requirePermission } from "../../policy/access.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { auditActorOf, newAuditEntry, relayAudit } from "../audit/new-audit-entry.ts"

export const AddRoleInput = Schema.Struct({
  name: RoleName,
  roleKey: RoleKey,
  activeStatus: Schema.optional(Schema.Boolean)
})
export type AddRoleInput = typeof AddRoleInput.Type

export const addRole = Effect.fnUntraced(function* (actor: Principal, input: AddRoleInput) {
  yield* requirePermission(actor, "team.roles.write")
  const draft = yield* newAuditEntry(auditActorOf(actor), "role.added", { type: "role", id: "" })
  // The store allocates the id, so the entry is completed with the created role.
  const entryOf = (created: Role) =>
    new AuditEntry({
      ...draft,
      target: { type: "role", id: String(created.id) },
      changes: changesBetween(null, created, roleAuditFields)
    })
  const created = yield* (yield* RoleStore).insert(
    new NewRole({
      name: input.name,
      roleKey: input.roleKey,
      activeStatus: input.activeStatus ?? true,
      createdAt: yield* DateTime.now
    }),
    entryOf
  )
  yield* relayAudit(entryOf(created))
  return created
})
