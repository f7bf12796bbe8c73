import { Effect, Layer, Option } from "effect"
import {
  Invitation,
  InvitationId,
  InvitationStore,
  inOrganization,
  OrganizationId,
  RoleId,
  TokenHash
} from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { Row, SqlValue } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { instantOf, int, millis, optionalRow, rowChecked, text, whereClause } from "./values.ts"

const toInvitation = (row: Row) =>
  new Invitation(
    {
      id: InvitationId.make(text(row.id)),
      organizationId: OrganizationId.make(text(row.organization_id)),
      email: text(row.email),
      roleId: RoleId.make(int(row.role_id)),
      status: text(row.status) as Invitation["status"],
      tokenHash: TokenHash.make(text(row.token_hash)),
      expiresAt: instantOf(row.expires_at),
      createdAt: instantOf(row.created_at)
    },
    rowChecked
  )

/** Invitations; a partial unique index keeps one pending invitation per e-mail in an organisation. */
export const makeInvitationStore = Effect.gen(function* () {
  const { read, write } = yield* SqliteDatabase
  const one = (sql: string, ...params: ReadonlyArray<SqlValue>) =>
    read((db) => optionalRow(db.get(sql, ...params), toInvitation))
  return InvitationStore.of({
    replace: (invitation, entry) =>
      write((db) => {
        db.run(
          "DELETE FROM invitations WHERE organization_id = ? AND email = ? AND status = 'pending'",
          invitation.organizationId,
          invitation.email
        )
        db.run(
          `INSERT INTO invitations (id, organization_id, email, role_id, status, token_hash, expires_at, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          invitation.id,
          invitation.organizationId,
          invitation.email,
          invitation.roleId,
          invitation.status,
          invitation.tokenHash,
          millis(invitation.expiresAt),
          millis(invitation.createdAt)
        )
        appendEntry(db, entry)
      }),
    findById: (id) =>
      inOrganization((organizationId) =>
        one("SELECT * FROM invitations WHERE id = ? AND organization_id = ?", id, organizationId)
      ),
    findByTokenHash: (tokenHash) => one("SELECT * FROM invitations WHERE token_hash = ?", tokenHash),
    page: (query, limit) =>
      inOrganization((organizationId) =>
        read((db) => {
          const where = whereClause("organization_id = ?", organizationId)
          const now = millis(query.now)
          if (query.after !== undefined) {
            const at = millis(query.after.createdAt)
            where.and("(created_at > ? OR (created_at = ? AND id > ?))", at, at, query.after.id)
          }
          if (query.email !== undefined) where.and("email = ?", query.email)
          if (query.status === "pending") where.and("status = 'pending' AND expires_at > ?", now)
          else if (query.status === "expired") where.and("status = 'pending' AND expires_at <= ?", now)
          else if (query.status !== undefined) where.and("status = ?", query.status)
          return db
            .all(
              `SELECT * FROM invitations WHERE ${where.sql()} ORDER BY created_at, id LIMIT ?`,
              ...where.params,
              limit
            )
            .map(toInvitation)
        })
      ),
    revoke: (id, entry) =>
      inOrganization((organizationId) =>
        write((db) => {
          const row = db.get(
            "UPDATE invitations SET status = 'revoked' WHERE id = ? AND organization_id = ? AND status = 'pending' RETURNING *",
            id,
            organizationId
          )
          if (row === undefined) return Option.none()
          appendEntry(db, entry)
          return Option.some(toInvitation(row))
        })
      ),
    claim: (tokenHash, now, entry) =>
      write((db) => {
        const row = db.get(
          "UPDATE invitations SET status = 'accepted' WHERE token_hash = ? AND status = 'pending' AND expires_at > ? RETURNING *",
          tokenHash,
          millis(now)
        )
        if (row === undefined) return Option.none()
        appendEntry(db, entry)
        return Option.some(toInvitation(row))
      }),
    removeAll: inOrganization((organizationId) =>
      write((db) => void db.run("DELETE FROM invitations WHERE organization_id = ?", organizationId))
    )
  })
})

export const invitationStoreLayer = Layer.effect(InvitationStore, makeInvitationStore)
