import { Schema } from "effect"
import { PermissionId } from "./ids.ts"

export const PermissionKey = Schema.Literals([
  "team.read",
  "team.members.write",
  "team.roles.write",
  "team.permissions.write",
  "billing.read",
  "billing.subscribe",
  "admin.accounts.write",
  "audit.read"
])
export type PermissionKey = typeof PermissionKey.Type

export class Permission extends Schema.Class<Permission>("roster/Permission")({
  id: PermissionId,
  key: PermissionKey,
  description: Schema.String
}) {}

const entry = (id: number, key: PermissionKey, description: string) =>
  new Permission({ id: PermissionId.make(id), key, description })

/** The fixed catalog. Ids are part of the public contract: never renumber, only append. */
export const PermissionCatalog: ReadonlyArray<Permission> = [
  entry(1, "team.read", "Read members, roles and role permissions"),
  entry(2, "team.members.write", "Add, change and remove team members"),
  entry(3, "team.roles.write", "Add, change and delete roles"),
  entry(4, "team.permissions.write", "Grant and remove role permissions"),
  entry(5, "billing.read", "Read plans and the organisation's subscription"),
  entry(6, "billing.subscribe", "Subscribe the organisation to a plan"),
  entry(7, "admin.accounts.write", "Enable and disable member accounts, set their passwords"),
  entry(8, "audit.read", "Read the audit record: who changed what, and when")
]

const byId = new Map(PermissionCatalog.map((permission) => [permission.id as number, permission]))
const byKey = new Map(PermissionCatalog.map((permission) => [permission.key, permission]))

export const findPermission = (id: number): Permission | undefined => byId.get(id)

export const permissionIdOf = (key: PermissionKey): PermissionId => {
  const permission = byKey.get(key)
  if (permission === undefined) throw new Error(`Permission ${key} is missing from the catalog`)
  return permission.id
}

export const allPermissionIds: ReadonlySet<PermissionId> = new Set(PermissionCatalog.map((p) => p.id))
