import { DateTime, Effect, Layer, Option } from "effect"
import {
  DuplicateOrganizationSlug,
  defaultOrganizationId,
  defaultOrganizationSlug,
  Organization,
  OrganizationId,
  OrganizationStore,
  RoleId
} from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { Row, SqlValue } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import {
  flag,
  instantOf,
  int,
  isSet,
  likePrefix,
  millis,
  optional,
  optionalRow,
  rowChecked,
  text,
  whereClause
} from "./values.ts"

const toOrganization = (row: Row) =>
  new Organization(
    {
      id: OrganizationId.make(text(row.id)),
      name: text(row.name),
      slug: text(row.slug),
      ...(optional(row.default_role_id, int) === undefined
        ? {}
        : { defaultRoleId: RoleId.make(int(row.default_role_id)) }),
      ...(optional(row.owner_role_id, int) === undefined
        ? {}
        : { ownerRoleId: RoleId.make(int(row.owner_role_id)) }),
      ...(isSet(row.require_mfa) ? { requireMfa: true } : {}),
      ...(isSet(row.sso_required) ? { ssoRequired: true } : {}),
      createdAt: instantOf(row.created_at)
    },
    rowChecked
  )

const notDeleting = "deleting = 0"

export const makeOrganizationStore = Effect.gen(function* () {
  const { read, readRemembered, write, transaction } = yield* SqliteDatabase
  // Every instance makes sure of the default organisation at start; the second insert is ignored.
  yield* write((db) =>
    db.run(
      "INSERT OR IGNORE INTO organizations (id, name, slug, created_at) VALUES (?, 'Default', ?, ?)",
      defaultOrganizationId,
      defaultOrganizationSlug,
      millis(DateTime.nowUnsafe())
    )
  )
  const findWhere = (condition: string, ...params: ReadonlyArray<SqlValue>) =>
    readRemembered(`organization ${condition} ${JSON.stringify(params)}`, (db) =>
      optionalRow(
        db.get(`SELECT * FROM organizations WHERE ${condition} AND ${notDeleting}`, ...params),
        toOrganization
      )
    )
  return OrganizationStore.of({
    findById: (id) => findWhere("id = ?", id),
    findByRef: (ref) => findWhere("(id = ? OR slug = ?)", ref, ref),
    insert: (organization, entry) =>
      transaction((db) => {
        db.run(
          "INSERT INTO organizations (id, name, slug, default_role_id, owner_role_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
          organization.id,
          organization.name,
          organization.slug,
          organization.defaultRoleId ?? null,
          organization.ownerRoleId ?? null,
          millis(organization.createdAt)
        )
        appendEntry(db, entry)
      }).pipe(
        Effect.catchTag("UniqueViolation", () =>
          Effect.fail(new DuplicateOrganizationSlug({ slug: organization.slug }))
        )
      ),
    update: (id, changes, entry) =>
      write((db) => {
        const current = db.get(`SELECT * FROM organizations WHERE id = ? AND ${notDeleting}`, id)
        if (current === undefined) return Option.none()
        const updated = new Organization({ ...toOrganization(current), ...changes })
        db.run(
          "UPDATE organizations SET name = ?, default_role_id = ?, require_mfa = ?, sso_required = ? WHERE id = ?",
          updated.name,
          updated.defaultRoleId ?? null,
          flag(updated.requireMfa === true),
          flag(updated.ssoRequired === true),
          id
        )
        appendEntry(db, entry)
        return Option.some(updated)
      }),
    recordOwnerRole: (id, ownerRoleId) =>
      write((db) => {
        db.run(
          "UPDATE organizations SET owner_role_id = ? WHERE id = ? AND owner_role_id IS NULL",
          ownerRoleId,
          id
        )
      }),
    startDeleting: (id, entry) =>
      write((db) => {
        const current = db.get(`SELECT * FROM organizations WHERE id = ? AND ${notDeleting}`, id)
        if (current === undefined) return Option.none()
        db.run("UPDATE organizations SET deleting = 1 WHERE id = ?", id)
        appendEntry(db, entry)
        return Option.some(toOrganization(current))
      }),
    beingDeleted: read((db) =>
      db
        .all("SELECT id FROM organizations WHERE deleting = 1")
        .map((row) => OrganizationId.make(text(row.id)))
    ),
    remove: (id) => write((db) => void db.run("DELETE FROM organizations WHERE id = ?", id)),
    page: (query, limit) =>
      read((db) => {
        const where = whereClause(notDeleting)
        if (query.after !== undefined) {
          const at = millis(query.after.createdAt)
          where.and("(created_at > ? OR (created_at = ? AND id > ?))", at, at, query.after.id)
        }
        if (query.q !== undefined) {
          const prefix = likePrefix(query.q)
          where.and("(slug LIKE ? ESCAPE '\\' OR lower(name) LIKE ? ESCAPE '\\')", prefix, prefix)
        }
        return db
          .all(
            `SELECT * FROM organizations WHERE ${where.sql()} ORDER BY created_at, id LIMIT ?`,
            ...where.params,
            limit
          )
          .map(toOrganization)
      })
  })
})

export const organizationStoreLayer = Layer.effect(OrganizationStore, makeOrganizationStore)
