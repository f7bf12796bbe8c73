import { Effect, Layer, Option } from "effect"
import { inOrganization, RoleLookup } from "../../core/index.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase, sqlOn } from "./database.ts"
import { joinedPermissionIds } from "./role-permission-store.ts"
import { toRole } from "./role-store.ts"

const roleWithPermissions = `SELECT r.id, r.name, r.role_key, r.active, r.created_at, r.deactivated_at,
  p.permission_ids
  FROM roles r
  LEFT JOIN role_permissions p ON p.role_id = r.id AND p.organization_id = r.organization_id
  WHERE r.id = ? AND r.organization_id = ?`

const withPermissions = (row: Row | undefined) =>
  Option.map(Option.fromNullishOr(row), (found) => ({
    role: toRole(found),
    permissionIds: joinedPermissionIds(found.permission_ids)
  }))

/** A role and its permission record, in one statement. */
export const makeRoleLookup = Effect.gen(function* () {
  const { read } = sqlOn(yield* SqliteDatabase)
  return RoleLookup.of({
    find: (id) =>
      inOrganization((organizationId) =>
        read((db) => withPermissions(db.get(roleWithPermissions, id, organizationId)))
      )
  })
})

export const roleLookupLayer = Layer.effect(RoleLookup, makeRoleLookup)
