import { Effect, Layer, Option } from "effect"
import { SessionLookup } from "../../core/index.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { memberColumns, toMember } from "./member-rows.ts"
import { joinedPermissionIds } from "./role-permission-store.ts"
import { toSession } from "./session-store.ts"
import { instantOf, isSet } from "./values.ts"

/**
 * The session, its membership with the account, whether the role is active and its permission
 * record: one statement, the member's columns named as `toMember` reads them, the session's prefixed.
 */
const sessionWithMember = `SELECT s.token_hash AS s_token_hash, s.id AS s_id, s.member_id AS s_member_id,
  s.organization_id AS s_organization_id, s.member_epoch AS s_member_epoch, s.created_at AS s_created_at,
  s.last_seen_at AS s_last_seen_at, s.expires_at AS s_expires_at, s.user_agent AS s_user_agent,
  s.address AS s_address, s.mfa_pending AS s_mfa_pending, s.amr AS s_amr, s.auth_time AS s_auth_time,
  ${memberColumns},
  r.active AS role_active, r.deactivated_at AS role_deactivated_at, p.permission_ids
  FROM sessions s
  JOIN memberships m ON m.account_id = s.member_id AND m.organization_id = s.organization_id
  JOIN accounts a ON a.id = m.account_id
  LEFT JOIN roles r ON r.id = m.role_id AND r.organization_id = m.organization_id
  LEFT JOIN role_permissions p ON p.role_id = m.role_id AND p.organization_id = m.organization_id
  WHERE s.token_hash = ?`

const toFound = (row: Row) => ({
  session: toSession(row, "s_"),
  member: toMember(row),
  role:
    row.role_active === null || row.role_active === undefined
      ? undefined
      : {
          activeStatus: isSet(row.role_active),
          ...(row.role_deactivated_at === null || row.role_deactivated_at === undefined
            ? {}
            : { deactivatedAt: instantOf(row.role_deactivated_at) })
        },
  permissionIds: joinedPermissionIds(row.permission_ids)
})

/** A session and all that authenticates it, in one statement. */
export const makeSessionLookup = Effect.gen(function* () {
  const { readRemembered } = yield* SqliteDatabase
  return SessionLookup.of({
    find: (tokenHash) =>
      readRemembered(`session ${tokenHash}`, (db) =>
        Option.map(Option.fromNullishOr(db.get(sessionWithMember, tokenHash)), toFound)
      )
  })
})

export const sessionLookupLayer = Layer.effect(SessionLookup, makeSessionLookup)
