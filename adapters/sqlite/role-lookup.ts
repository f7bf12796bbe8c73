import { Effect, Layer, Option } from "effect"
import { RoleLookup } from "../../core/index.ts"
import { inOrganization } from "../organization-scope.ts"
import { SqliteDatabase, sqlOn } from "./database.ts"
import { joinedPermissionIds } from "./role-permission-store.ts"
import { toRole } from "./role-store.ts"

const roleWithPermissions = `SELECT r.id, r.name, r.role_key, r.active, r.created_at, p.permission_ids
  FROM roles r
  LEFT JOIN role_permissions p ON p.role_id = r.id AND p.organization_id = r.organization_id
  WHERE r.id = ? AND r.organization_id = ?`

/** A role and its permission record, in one statement. */
export const makeRoleLookup = Effect.gen(function* () {
  const { read } = sqlOn(yield* SqliteDatabase)
  return RoleLookup.of({
    find: (id) =>
      inOrganization((organizationId) =>
        read((db) =>
          Option.map(Option.fromNullishOr(db.get(roleWithPermissions, id, organizationId)), (row) => ({
            role: toRole(row),
            permissionIds: joinedPermissionIds(row.permission_ids)
          }))
        )
      )
  })
})

export const roleLookupLayer = Layer.effect(RoleLookup, makeRoleLookup)
