import { sessions } from "../resources/sessions.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { type EarlierTable, instant, moveIntoKitTables } from "./schema-v17.ts"

/** The methods a session's sign-in proved, as version 18 kept them (space-separated; none: empty). */
const methods = (amr: Row[string] | undefined) =>
  typeof amr === "string" && amr !== "" ? amr.split(" ") : []

/** How the sessions table of version 18 held its sessions. */
const earlier: EarlierTable = {
  table: "sessions",
  declared: sessions as never,
  record: (row) => ({
    tokenHash: row.token_hash,
    id: row.id,
    memberId: row.member_id,
    organizationId: row.organization_id,
    memberEpoch: Number(row.member_epoch),
    createdAt: instant(row.created_at),
    lastSeenAt: instant(row.last_seen_at ?? row.created_at),
    expiresAt: instant(row.expires_at),
    userAgent: row.user_agent ?? null,
    address: row.address ?? null,
    mfaPending: Number(row.mfa_pending) === 1,
    amr: methods(row.amr),
    // A session made before its sign-in's proof was recorded was proved when it was made.
    authTime: instant(row.auth_time ?? row.created_at)
  })
}

/**
 * Version 19: the sessions became a declaration: their rows move into the table their kit derives
 * (under the same name, `sessions`), in the step's transaction, each one as it was.
 */
export const schemaV19 = (db: SqliteConnection) => moveIntoKitTables(db, [earlier])
