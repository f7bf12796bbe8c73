import { Effect, Layer, Option } from "effect"
import { SessionLookup } from "../../core/index.ts"
import { sessions } from "../resources/sessions.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { tableOf } from "./kit-table.ts"
import { memberColumns, toMember } from "./member-rows.ts"
import { joinedPermissionIds } from "./role-permission-store.ts"
import { instantOf, isSet } from "./values.ts"

const sessionTable = tableOf(sessions)
const sessionOf = sessionTable.recordOf

/**
 * The session (its kit's row, read whole from its document), its membership with the account,
 * whether the role is active and its permission record: one statement, the member's columns named
 * as `toMember` reads them.
 */
const sessionWithMember = `SELECT s."document" AS session_document,
  ${memberColumns},
  r.active AS role_active, r.deactivated_at AS role_deactivated_at, p.permission_ids
  FROM ${sessionTable.table} s
  JOIN memberships m ON m.account_id = s."memberId" AND m.organization_id = s."organizationId"
  JOIN accounts a ON a.id = m.account_id
  LEFT JOIN roles r ON r.id = m.role_id AND r.organization_id = m.organization_id
  LEFT JOIN role_permissions p ON p.role_id = m.role_id AND p.organization_id = m.organization_id
  WHERE s."key" = ?`

const toFound = (row: Row) => ({
  session: sessionOf({ document: String(row.session_document) }),
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
