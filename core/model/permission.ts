import { Schema } from "effect"
import { PermissionId } from "./ids.ts"

/** The fixed catalog, by key. Ids are part of the public contract: never renumber, only append. */
const catalog = {
  "team.read": { id: 1, description: "Read members, roles and role permissions" },
  "team.members.write": { id: 2, description: "Add, change and remove team members" },
  "team.roles.write": { id: 3, description: "Add, change and delete roles" },
  "team.permissions.write": { id: 4, description: "Grant and remove role permissions" },
  "billing.read": { id: 5, description: "Read plans and the organisation's subscription" },
  "billing.subscribe": { id: 6, description: "Subscribe the organisation to a plan" },
  "admin.accounts.write": { id: 7, description: "Enable and disable member accounts, set their passwords" },
  "audit.read": { id: 8, description: "Read the audit record: who changed what, and when" },
  "organization.write": { id: 9, description: "Change the organisation itself: its name and settings" },
  "organization.api_keys.write": {
    id: 10,
    description: "Create, change, rotate and revoke the organisation's API keys"
  },
  "organization.webhooks.write": {
    id: 11,
    description: "Register, change, test and delete the organisation's webhook endpoints"
  },
  "organization.sso.write": {
    id: 12,
    description: "Claim and verify the organisation's domains, and set up its single sign-on connections"
  }
} as const

export const PermissionKey = Schema.Literals(Object.keys(catalog) as Array<keyof typeof catalog>)
export type PermissionKey = typeof PermissionKey.Type

export class Permission extends Schema.Class<Permission>("roster/Permission")({
  id: PermissionId,
  key: PermissionKey,
  description: Schema.String
}) {}

export const PermissionCatalog: ReadonlyArray<Permission> = PermissionKey.literals.map(
  (key) =>
    new Permission({ id: PermissionId.make(catalog[key].id), key, description: catalog[key].description })
)

const byId = new Map(PermissionCatalog.map((permission) => [permission.id as number, permission]))
// Built from every key of the catalog, so no key is missing.
const byKey = Object.fromEntries(
  PermissionCatalog.map((permission) => [permission.key, permission])
) as Record<PermissionKey, Permission>

export const findPermission = (id: number): Permission | undefined => byId.get(id)

export const permissionIdOf = (key: PermissionKey): PermissionId => byKey[key].id

export const allPermissionIds: ReadonlySet<PermissionId> = new Set(PermissionCatalog.map((p) => p.id))

/** How a request names a permission: a JSON number is its id, a string its key (Roster's or the product's). */
export const PermissionRef = Schema.Union([PermissionId, Schema.String.check(Schema.isBetweenLength(1, 100))])
export type PermissionRef = typeof PermissionRef.Type
