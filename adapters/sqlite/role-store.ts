import { Effect, Layer, Option } from "effect"
import { DuplicateRoleKey, inOrganization, Role, RoleId, RoleInUse, RoleStore } from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { flag, instantOf, int, isSet, millis, optionalRow, rowChecked, text } from "./values.ts"

export const toRole = (row: Row) =>
  new Role(
    {
      id: RoleId.make(int(row.id)),
      name: text(row.name),
      roleKey: text(row.role_key),
      activeStatus: isSet(row.active),
      createdAt: instantOf(row.created_at),
      ...(row.deactivated_at === null || row.deactivated_at === undefined
        ? {}
        : { deactivatedAt: instantOf(row.deactivated_at) })
    },
    rowChecked
  )

const columns = "id, name, role_key, active, created_at, deactivated_at"

export const makeRoleStore = Effect.gen(function* () {
  const { read, write, transaction } = yield* SqliteDatabase
  const findIn = (organizationId: string, id: number) =>
    read((db) =>
      optionalRow(
        db.get(`SELECT ${columns} FROM roles WHERE id = ? AND organization_id = ?`, id, organizationId),
        toRole
      )
    )
  return RoleStore.of({
    // AUTOINCREMENT: ids are never used twice, even after the newest role is deleted.
    insert: (role, audit) =>
      inOrganization((organizationId) =>
        transaction((db) => {
          const row = db.get(
            `INSERT INTO roles (organization_id, name, role_key, active, created_at) VALUES (?, ?, ?, ?, ?)
             RETURNING ${columns}`,
            organizationId,
            role.name,
            role.roleKey,
            flag(role.activeStatus),
            millis(role.createdAt)
          )
          const created = toRole(row ?? {})
          appendEntry(db, audit?.(created))
          return created
        })
      ).pipe(
        Effect.catchTag("UniqueViolation", () => Effect.fail(new DuplicateRoleKey({ roleKey: role.roleKey })))
      ),
    findById: (id) => inOrganization((organizationId) => findIn(organizationId, id)),
    update: (id, changes, entry) =>
      inOrganization((organizationId) =>
        transaction((db) => {
          const current = db.get(
            `SELECT ${columns} FROM roles WHERE id = ? AND organization_id = ?`,
            id,
            organizationId
          )
          if (current === undefined) return Option.none()
          const updated = new Role({ ...toRole(current), ...changes })
          db.run(
            "UPDATE roles SET name = ?, role_key = ?, active = ?, deactivated_at = ? WHERE id = ?",
            updated.name,
            updated.roleKey,
            flag(updated.activeStatus),
            updated.deactivatedAt === undefined ? null : millis(updated.deactivatedAt),
            id
          )
          appendEntry(db, entry)
          return Option.some(updated)
        })
      ).pipe(
        Effect.catchTag("UniqueViolation", () =>
          Effect.fail(new DuplicateRoleKey({ roleKey: changes.roleKey ?? "" }))
        )
      ),
    // In the write's transaction: a member written into the role commits before or after it, whole.
    remove: (id, entry) =>
      inOrganization((organizationId) =>
        write((db) => {
          const current = db.get(
            `SELECT ${columns} FROM roles WHERE id = ? AND organization_id = ?`,
            id,
            organizationId
          )
          if (current === undefined) return Option.none()
          const held = db.get(
            "SELECT 1 FROM memberships WHERE organization_id = ? AND role_id = ? LIMIT 1",
            organizationId,
            id
          )
          if (held !== undefined) return "held" as const
          db.run("DELETE FROM roles WHERE id = ?", id)
          appendEntry(db, entry)
          return Option.some(toRole(current))
        })
      ).pipe(
        Effect.flatMap((removed) =>
          removed === "held" ? Effect.fail(new RoleInUse({ roleId: id })) : Effect.succeed(removed)
        )
      ),
    removeAll: inOrganization((organizationId) =>
      write((db) => void db.run("DELETE FROM roles WHERE organization_id = ?", organizationId))
    ),
    page: (after, limit) =>
      inOrganization((organizationId) =>
        read((db) =>
          db
            .all(
              `SELECT ${columns} FROM roles WHERE organization_id = ? AND id > ? ORDER BY id LIMIT ?`,
              organizationId,
              after ?? 0,
              limit
            )
            .map((row) => toRole(row))
        )
      )
  })
})

export const roleStoreLayer = Layer.effect(RoleStore, makeRoleStore)
