import { Clock, Effect, Layer, Option } from "effect"
import { DuplicateRoleKey, inOrganization, Role, RoleId, RoleInUse, RoleStore } from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { SqliteDatabase, sqlOn } from "./database.ts"
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

/**
 * A claim older than this whose member was never written was left by a process that died between
 * the two writes (a request gives up long before): the role is held by the members that hold it.
 */
const abandonedAfterMs = 60_000

/**
 * Counts one more holder of the role, `holders_changed_at` set to now (then id, organisation): a
 * claim is recent, whenever the role was last held.
 */
export const claiming =
  "UPDATE roles SET holders = holders + 1, holders_changed_at = ? WHERE id = ? AND organization_id = ?"

/** Whether the role's count is only of abandoned claims: no member holds it and none was counted lately. */
const abandoned = (db: SqliteConnection, role: Row, now: number) =>
  now - int(role.holders_changed_at) >= abandonedAfterMs &&
  db.get("SELECT 1 FROM memberships WHERE role_id = ? LIMIT 1", int(role.id)) === undefined

export const makeRoleStore = Effect.gen(function* () {
  const { read, write, transaction } = sqlOn(yield* SqliteDatabase)
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
    claim: (id) =>
      inOrganization((organizationId) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          write((db) => db.get(`${claiming} RETURNING id`, now, id, organizationId) !== undefined)
        )
      ),
    release: (id) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        write(
          (db) =>
            void db.run(
              "UPDATE roles SET holders = holders - 1, holders_changed_at = ? WHERE id = ? AND holders > 0",
              now,
              id
            )
        )
      ),
    remove: (id, entry) =>
      inOrganization((organizationId) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          write((db) => {
            const current = db.get(
              `SELECT ${columns}, holders, holders_changed_at FROM roles WHERE id = ? AND organization_id = ?`,
              id,
              organizationId
            )
            if (current === undefined) return Option.none()
            if (int(current.holders) > 0 && !abandoned(db, current, now)) return "held" as const
            db.run("DELETE FROM roles WHERE id = ?", id)
            appendEntry(db, entry)
            return Option.some(toRole(current))
          })
        )
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
