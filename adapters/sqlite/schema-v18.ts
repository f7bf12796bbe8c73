import { organizations } from "../resources/organizations.ts"
import { groupProfiles, userProfiles } from "../resources/provisioning-profiles.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { type EarlierTable, instant, json, moveIntoKitTables } from "./schema-v17.ts"

/** What a flag of version 17 (1 or 0) says, set only when it is: a record leaves an unset flag out. */
const flagged = (field: string, value: Row[string] | undefined) =>
  Number(value) === 1 ? { [field]: true } : {}
const numbered = (field: string, value: Row[string] | undefined) =>
  value === null || value === undefined ? {} : { [field]: Number(value) }

/** How each table of version 17 held its records. */
const earlier: ReadonlyArray<EarlierTable> = [
  {
    table: "organizations",
    declared: organizations as never,
    record: (row) => ({
      id: row.id,
      name: row.name,
      slug: row.slug,
      ...numbered("defaultRoleId", row.default_role_id),
      ...numbered("ownerRoleId", row.owner_role_id),
      ...flagged("requireMfa", row.require_mfa),
      ...flagged("ssoRequired", row.sso_required),
      createdAt: instant(row.created_at),
      ...flagged("deleting", row.deleting)
    })
  },
  {
    table: "user_profiles",
    declared: userProfiles as never,
    record: (row) => ({
      id: `${row.organization_id}/${row.member_id}`,
      organizationId: row.organization_id,
      userNameKey: row.user_name_key,
      profile: json(row.profile)
    })
  },
  {
    table: "group_profiles",
    declared: groupProfiles as never,
    record: (row) => ({
      id: `${row.organization_id}/${row.role_id}`,
      organizationId: row.organization_id,
      profile: json(row.profile)
    })
  }
]

/**
 * Version 18: the organisations and the provisioning profiles became declarations: their rows move
 * into the tables their kit derives, in the step's transaction (an organisation being deleted stays
 * so, its deletion resumed at start; a profile keyed by organisation and id as on MongoDB).
 */
export const schemaV18 = (db: SqliteConnection) => moveIntoKitTables(db, earlier)
