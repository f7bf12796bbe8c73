import { Effect, Layer, Option, Schema } from "effect"
import {
  inOrganization,
  PermissionId,
  RoleId,
  RolePermissionDetail,
  RolePermissionDetailId,
  RolePermissionStore,
  sortedPermissions,
  withoutPermission,
  withPermission
} from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { instantOf, int, jsonColumn, millis, optionalRow, rowChecked } from "./values.ts"

const { encode: encodeIds, decode: decodeIds } = jsonColumn(Schema.Array(PermissionId))

/** The ids of a `permission_ids` column read through a join: none when the role has no record. */
export const joinedPermissionIds = (value: unknown) =>
  value === null || value === undefined ? [] : decodeIds(value)

const toDetail = (row: Row) =>
  new RolePermissionDetail(
    {
      id: RolePermissionDetailId.make(int(row.id)),
      roleId: RoleId.make(int(row.role_id)),
      permissionIds: decodeIds(row.permission_ids),
      updatedAt: instantOf(row.updated_at)
    },
    rowChecked
  )

const byRole = (db: SqliteConnection, organizationId: string, roleId: number) =>
  db.get("SELECT * FROM role_permissions WHERE role_id = ? AND organization_id = ?", roleId, organizationId)

export const makeRolePermissionStore = Effect.gen(function* () {
  const { read, write } = yield* SqliteDatabase
  const findWhere = (condition: string, value: number) =>
    inOrganization((organizationId) =>
      read((db) =>
        optionalRow(
          db.get(
            `SELECT * FROM role_permissions WHERE ${condition} = ? AND organization_id = ?`,
            value,
            organizationId
          ),
          toDetail
        )
      )
    )
  return RolePermissionStore.of({
    grant: (roleId, permissionId, at, audit) =>
      inOrganization((organizationId) =>
        write((db) => {
          const role = db.get(
            "SELECT 1 FROM roles WHERE id = ? AND organization_id = ?",
            roleId,
            organizationId
          )
          if (role === undefined) return Option.none()
          const existing = optionalRow(byRole(db, organizationId, roleId), toDetail)
          if (Option.isSome(existing) && existing.value.permissionIds.includes(permissionId)) return existing
          const permissionIds = sortedPermissions(
            withPermission(new Set(Option.isSome(existing) ? existing.value.permissionIds : []), permissionId)
          )
          const row = Option.isSome(existing)
            ? db.get(
                "UPDATE role_permissions SET permission_ids = ?, updated_at = ? WHERE id = ? RETURNING *",
                encodeIds(permissionIds),
                millis(at),
                existing.value.id
              )
            : db.get(
                `INSERT INTO role_permissions (organization_id, role_id, permission_ids, updated_at)
                 VALUES (?, ?, ?, ?) RETURNING *`,
                organizationId,
                roleId,
                encodeIds(permissionIds),
                millis(at)
              )
          const granted = toDetail(row ?? {})
          appendEntry(db, audit?.(granted))
          return Option.some(granted)
        })
      ),
    revoke: ({ id, roleId }, permissionId, at, entry) =>
      inOrganization((organizationId) =>
        write((db) => {
          const row = db.get(
            "SELECT * FROM role_permissions WHERE id = ? AND role_id = ? AND organization_id = ?",
            id,
            roleId,
            organizationId
          )
          if (row === undefined) return Option.none()
          const current = toDetail(row)
          if (!current.permissionIds.includes(permissionId)) return Option.some(current)
          const revoked = new RolePermissionDetail({
            ...current,
            permissionIds: sortedPermissions(withoutPermission(new Set(current.permissionIds), permissionId)),
            updatedAt: at
          })
          db.run(
            "UPDATE role_permissions SET permission_ids = ?, updated_at = ? WHERE id = ?",
            encodeIds(revoked.permissionIds),
            millis(at),
            id
          )
          appendEntry(db, entry)
          return Option.some(revoked)
        })
      ),
    findById: (id) => findWhere("id", id),
    findByRole: (roleId) => findWhere("role_id", roleId),
    rolesHolding: (permissionIds) =>
      inOrganization((organizationId) =>
        read((db) =>
          db
            .all("SELECT * FROM role_permissions WHERE organization_id = ? ORDER BY role_id", organizationId)
            .map(toDetail)
            .filter((detail) => permissionIds.every((id) => detail.permissionIds.includes(id)))
            .map((detail) => detail.roleId)
        )
      ),
    removeAll: inOrganization((organizationId) =>
      write((db) => void db.run("DELETE FROM role_permissions WHERE organization_id = ?", organizationId))
    ),
    removeOfRole: (roleId) =>
      inOrganization((organizationId) =>
        write(
          (db) =>
            void db.run(
              "DELETE FROM role_permissions WHERE role_id = ? AND organization_id = ?",
              roleId,
              organizationId
            )
        )
      )
  })
})

export const rolePermissionStoreLayer = Layer.effect(RolePermissionStore, makeRolePermissionStore)
