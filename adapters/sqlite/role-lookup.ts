import { Effect, Layer, Option } from "effect"
import { inOrganization, RoleLookup, RolePermissionDetailId } from "../../core/index.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { joinedPermissionIds } from "./role-permission-store.ts"
import { toRole } from "./role-store.ts"
import { int } from "./values.ts"

const rolesWithPermissions = `SELECT r.id, r.name, r.role_key, r.active, r.created_at, r.deactivated_at,
  p.permission_ids, p.id AS record_id
  FROM roles r
  LEFT JOIN role_permissions p ON p.role_id = r.id AND p.organization_id = r.organization_id`

const roleWithPermissions = `${rolesWithPermissions} WHERE r.id = ? AND r.organization_id = ?`

const pageWithPermissions = `${rolesWithPermissions}
  WHERE r.organization_id = ? AND r.id > ? ORDER BY r.id LIMIT ?`

const withPermissions = (row: Row) => ({
  role: toRole(row),
  permissionIds: joinedPermissionIds(row.permission_ids),
  ...(row.record_id === null || row.record_id === undefined
    ? {}
    : { recordId: RolePermissionDetailId.make(int(row.record_id)) })
})

/** A role and its permission record, in one statement; a page of them, in one too. */
export const makeRoleLookup = Effect.gen(function* () {
  const { readRemembered } = yield* SqliteDatabase
  return RoleLookup.of({
    find: (id) =>
      inOrganization((organizationId) =>
        readRemembered(`role ${organizationId} ${id}`, (db) =>
          Option.map(Option.fromNullishOr(db.get(roleWithPermissions, id, organizationId)), withPermissions)
        )
      ),
    page: (after, limit) =>
      inOrganization((organizationId) =>
        readRemembered(`roles ${organizationId} ${after ?? 0} ${limit}`, (db) =>
          db.all(pageWithPermissions, organizationId, after ?? 0, limit).map(withPermissions)
        )
      )
  })
})

export const roleLookupLayer = Layer.effect(RoleLookup, makeRoleLookup)
