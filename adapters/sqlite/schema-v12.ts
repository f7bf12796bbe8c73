import { Schema } from "effect"
import { accountTokens, apiKeys, invitations, mfaFactors, scimTokens } from "../resources/index.ts"
import type { Resource } from "../resources/resource.ts"
import { deliveries, webhooks } from "../resources/webhook-records.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { ensureTable, tableOf } from "./kit-table.ts"

const instant = (millis: Row[string] | undefined) =>
  millis === null || millis === undefined ? null : new Date(Number(millis)).toISOString()
const json = (text: Row[string] | undefined) => JSON.parse(String(text)) as unknown

/** How each table of version 11 held its records, as each record's JSON form reads it. */
const earlier: ReadonlyArray<{
  readonly table: string
  readonly declared: Resource<object>
  readonly record: (row: Row) => Record<string, unknown>
}> = [
  {
    table: "api_keys",
    declared: apiKeys as never,
    record: (row) => ({
      id: row.id,
      organizationId: row.organization_id,
      name: row.name,
      lookup: row.lookup,
      start: row.start,
      permissions: json(row.permission_ids),
      createdBy: json(row.created_by),
      createdAt: instant(row.created_at),
      expiresAt: instant(row.expires_at),
      lastUsedAt: instant(row.last_used_at),
      secretHash: row.secret_hash,
      previous:
        row.previous_secret_hash === null
          ? null
          : { secretHash: row.previous_secret_hash, until: instant(row.previous_until) }
    })
  },
  {
    table: "scim_tokens",
    declared: scimTokens as never,
    record: (row) => ({
      id: row.id,
      organizationId: row.organization_id,
      name: row.name,
      permissionIds: json(row.permission_ids),
      tokenHash: row.token_hash,
      createdAt: instant(row.created_at)
    })
  },
  {
    table: "invitations",
    declared: invitations as never,
    record: (row) => ({
      id: row.id,
      organizationId: row.organization_id,
      email: row.email,
      roleId: Number(row.role_id),
      status: row.status,
      tokenHash: row.token_hash,
      expiresAt: instant(row.expires_at),
      createdAt: instant(row.created_at)
    })
  },
  {
    table: "account_tokens",
    declared: accountTokens as never,
    record: (row) => ({
      tokenHash: row.token_hash,
      purpose: row.purpose,
      accountId: row.account_id,
      organizationId: row.organization_id,
      email: row.email,
      createdAt: instant(row.created_at),
      expiresAt: instant(row.expires_at),
      triesLeft: Number(row.tries_left),
      sessionEpoch: Number(row.session_epoch)
    })
  },
  {
    table: "account_mfa",
    declared: mfaFactors as never,
    record: (row) => ({
      accountId: row.account_id,
      secret: row.secret,
      pending: row.pending,
      lastStep: Number(row.last_step),
      recoveryCodes: json(row.recovery_codes)
    })
  },
  {
    table: "webhooks",
    declared: webhooks as never,
    record: (row) => json(row.document) as Record<string, unknown>
  },
  {
    table: "webhook_deliveries",
    declared: deliveries as never,
    record: (row) => ({
      ...(json(row.document) as Record<string, unknown>),
      ...(row.claim === null ? {} : { claim: row.claim, leaseUntil: instant(row.lease_until) })
    })
  }
]

/**
 * Version 12: the tables of the resources that became declarations (API keys, SCIM tokens,
 * invitations, account tokens, second factors, webhooks and their deliveries) move into the tables
 * their kit derives from their declarations: each record whole as JSON beside the columns it is
 * found by. Every row is read as it was kept and written as its kit keeps it, in the step's
 * transaction.
 */
export const schemaV12 = (db: SqliteConnection) => {
  for (const { table, declared, record } of earlier) {
    db.exec(`ALTER TABLE "${table}" RENAME TO "${table}_v11"`)
    ensureTable(db, declared)
    const made = tableOf(declared)
    const decode = Schema.decodeUnknownSync(Schema.toCodecJson(declared.schema))
    for (const row of db.all(`SELECT * FROM "${table}_v11"`)) {
      db.run(made.insertSql, ...made.rowValues(decode(record(row))))
    }
    db.exec(`DROP TABLE "${table}_v11"`)
  }
}
