import {
  AccountRecord,
  DuplicateEmail,
  DuplicateUsername,
  MemberId,
  MemberRecord,
  OrganizationId,
  RoleId
} from "../../core/index.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { flag, instantOf, int, isSet, millis, optionalRow, rowChecked, text } from "./values.ts"

/** The columns of a membership (`m`) seen with its account (`a`), as `toMember` reads them. */
export const memberColumns = `a.id, a.username, a.email, a.email_verified, a.active AS account_active, a.epoch AS account_epoch,
  m.organization_id, m.role_id, m.active, m.epoch, m.created_at`

/** A membership seen with its account: the two rows joined, the epochs added. */
export const memberView = `SELECT ${memberColumns}
  FROM memberships m JOIN accounts a ON a.id = m.account_id`

export const toMember = (row: Row) =>
  new MemberRecord(
    {
      id: MemberId.make(text(row.id)),
      organizationId: OrganizationId.make(text(row.organization_id)),
      username: text(row.username),
      email: text(row.email),
      emailVerified: isSet(row.email_verified),
      accountActiveStatus: isSet(row.account_active),
      activestatus: isSet(row.active),
      roleId: RoleId.make(int(row.role_id)),
      createdAt: instantOf(row.created_at),
      sessionEpoch: int(row.account_epoch) + int(row.epoch)
    },
    rowChecked
  )

export const toAccount = (row: Row) =>
  new AccountRecord(
    {
      id: MemberId.make(text(row.id)),
      username: text(row.username),
      email: text(row.email),
      emailVerified: isSet(row.email_verified),
      passwordHash: text(row.password_hash),
      accountActiveStatus: isSet(row.active),
      createdAt: instantOf(row.created_at)
    },
    rowChecked
  )

export const memberIn = (db: SqliteConnection, organizationId: string, id: string) =>
  optionalRow(
    db.get(`${memberView} WHERE m.organization_id = ? AND m.account_id = ?`, organizationId, id),
    toMember
  )

export const insertMembership = (db: SqliteConnection, member: MemberRecord) =>
  db.run(
    "INSERT INTO memberships (organization_id, account_id, role_id, active, epoch, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    member.organizationId,
    member.id,
    member.roleId,
    flag(member.activestatus),
    member.sessionEpoch,
    millis(member.createdAt)
  )

/** Whether the organisation has the role: read in the transaction that writes a member into it. */
export const hasRole = (db: SqliteConnection, organizationId: string, roleId: number) =>
  db.get("SELECT 1 FROM roles WHERE id = ? AND organization_id = ?", roleId, organizationId) !== undefined

/** Which of an account's unique values another account holds. */
export const conflictOf = (
  db: SqliteConnection,
  id: string,
  fields: { readonly email?: string; readonly username?: string }
) =>
  fields.email !== undefined && db.get("SELECT 1 FROM accounts WHERE email = ? AND id <> ?", fields.email, id)
    ? new DuplicateEmail({ email: fields.email })
    : new DuplicateUsername({ username: fields.username ?? "" })

/** Deletes the accounts of `ids` that have no membership left. */
export const deleteUnheld = (db: SqliteConnection, ids: ReadonlyArray<string>) => {
  for (const id of ids) {
    db.run(
      "DELETE FROM accounts WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memberships WHERE account_id = ?)",
      id,
      id
    )
  }
}
