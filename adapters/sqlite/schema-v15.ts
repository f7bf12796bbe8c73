import type { SqliteConnection } from "./connection.ts"

/**
 * Version 15: a single sign-on connection records what whoever last set what it trusts held
 * (`trustCeiling`), the most it lets in. Nobody is known to have set those kept before: they record
 * none held, so they link no provisioned member and make nobody just in time until an owner (or a
 * caller holding the role concerned) sets their IdP again. The kit made the table, if any connection
 * was ever kept.
 */
export const schemaV15 = (db: SqliteConnection) => {
  const kept = db.get(
    "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'sso_connections'"
  )
  if (kept === undefined) return
  db.exec(
    `UPDATE sso_connections SET document = json_set(document, '$.trustCeiling', json('[]'))
      WHERE json_type(document, '$.trustCeiling') IS NULL`
  )
}
