import { Effect, Layer, Option, Schema } from "effect"
import {
  MemberId,
  OrganizationId,
  PermissionId,
  Role,
  RoleId,
  Session,
  SessionLookup,
  TokenHash
} from "../../core/index.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase, sqlOn } from "./database.ts"
import { memberColumns, toMember } from "./member-rows.ts"
import { instantOf, int, isSet, jsonColumn, rowChecked, text } from "./values.ts"

const { decode: decodeIds } = jsonColumn(Schema.Array(PermissionId))

/**
 * The session, its membership with the account, the role and its permission record: one statement,
 * the member's columns named as `toMember` reads them, the session's and the role's prefixed.
 */
const sessionWithMember = `SELECT s.token_hash, s.organization_id AS s_organization_id, s.member_epoch,
  s.created_at AS s_created_at, s.expires_at, ${memberColumns},
  r.name AS r_name, r.role_key AS r_role_key, r.active AS r_active, r.created_at AS r_created_at,
  p.permission_ids
  FROM sessions s
  JOIN memberships m ON m.account_id = s.member_id AND m.organization_id = s.organization_id
  JOIN accounts a ON a.id = m.account_id
  LEFT JOIN roles r ON r.id = m.role_id AND r.organization_id = m.organization_id
  LEFT JOIN role_permissions p ON p.role_id = m.role_id AND p.organization_id = m.organization_id
  WHERE s.token_hash = ?`

const toFound = (row: Row) => {
  const member = toMember(row)
  return {
    session: new Session(
      {
        tokenHash: TokenHash.make(text(row.token_hash)),
        memberId: MemberId.make(text(row.id)),
        organizationId: OrganizationId.make(text(row.s_organization_id)),
        memberEpoch: int(row.member_epoch),
        createdAt: instantOf(row.s_created_at),
        expiresAt: instantOf(row.expires_at)
      },
      rowChecked
    ),
    member,
    role:
      row.r_name === null || row.r_name === undefined
        ? undefined
        : new Role(
            {
              id: RoleId.make(int(row.role_id)),
              name: text(row.r_name),
              roleKey: text(row.r_role_key),
              activeStatus: isSet(row.r_active),
              createdAt: instantOf(row.r_created_at)
            },
            rowChecked
          ),
    permissionIds:
      row.permission_ids === null || row.permission_ids === undefined ? [] : decodeIds(row.permission_ids)
  }
}

/** A session and all that authenticates it, in one statement. */
export const makeSessionLookup = Effect.gen(function* () {
  const { read } = sqlOn(yield* SqliteDatabase)
  return SessionLookup.of({
    find: (tokenHash) =>
      read((db) => Option.map(Option.fromNullishOr(db.get(sessionWithMember, tokenHash)), toFound))
  })
})

export const sessionLookupLayer = Layer.effect(SessionLookup, makeSessionLookup)
