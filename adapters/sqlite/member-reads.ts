import { Effect, Option } from "effect"
import type { MemberStoreReads } from "../../core/index.ts"
import { inOrganization, loginKey, type MemberId, OrganizationId, RoleId } from "../../core/index.ts"
import type { SqliteConnection } from "./connection.ts"
import type { SqlHelpers } from "./database.ts"
import { memberConditions } from "./member-query.ts"
import { memberIn, memberView, toAccount, toMember } from "./member-rows.ts"
import { instantOf, int, isSet, optionalRow, text } from "./values.ts"

/** The account's memberships, oldest first. */
const membershipsIn = (db: SqliteConnection, id: MemberId) =>
  db
    .all(
      "SELECT organization_id, role_id, active, created_at FROM memberships WHERE account_id = ? ORDER BY created_at, organization_id",
      id
    )
    .map((row) => ({
      organizationId: OrganizationId.make(text(row.organization_id)),
      roleId: RoleId.make(int(row.role_id)),
      activestatus: isSet(row.active),
      createdAt: instantOf(row.created_at)
    }))

/** What `MemberStore` reads: members (a membership joined to its account), accounts, memberships. */
export const memberReads = ({
  read,
  readRemembered
}: Pick<SqlHelpers, "read" | "readRemembered">): MemberStoreReads => ({
  findById: (id) => inOrganization((organizationId) => read((db) => memberIn(db, organizationId, id))),
  findAccount: (id) =>
    read((db) => optionalRow(db.get("SELECT * FROM accounts WHERE id = ?", id), toAccount)),
  findByLogin: (login) => {
    const key = loginKey(login)
    return read((db) =>
      optionalRow(db.get("SELECT * FROM accounts WHERE username_key = ? OR email = ?", key, key), toAccount)
    )
  },
  findByLogins: (logins) => {
    const keys = [...new Set(logins.map(loginKey))]
    const marks = keys.map(() => "?").join(", ")
    return read((db) =>
      db
        .all(
          `SELECT * FROM accounts WHERE username_key IN (${marks}) OR email IN (${marks})`,
          ...keys,
          ...keys
        )
        .map(toAccount)
    )
  },
  membershipsOf: (id) => read((db) => membershipsIn(db, id)),
  findWithMemberships: (id) =>
    inOrganization((organizationId) =>
      read((db) =>
        Option.map(memberIn(db, organizationId, id), (member) => ({
          member,
          memberships: membershipsIn(db, id)
        }))
      )
    ),
  page: (query, limit) =>
    inOrganization((organizationId) =>
      Effect.suspend(() => {
        const where = memberConditions(organizationId, query)
        const sql = `${memberView} WHERE ${where.sql()} ORDER BY m.created_at, m.account_id LIMIT ?`
        return readRemembered(`members ${sql} ${JSON.stringify(where.params)} ${limit}`, (db) =>
          db.all(sql, ...where.params, limit).map(toMember)
        )
      })
    ),
  countActive: inOrganization((organizationId) =>
    read((db) =>
      int(
        db.get(
          `SELECT count(*) AS n FROM memberships m JOIN accounts a ON a.id = m.account_id
             WHERE m.organization_id = ? AND m.active = 1 AND a.active = 1`,
          organizationId
        )?.n
      )
    )
  )
})
