import { Schema } from "effect"
import { idempotencyKeys, idOf } from "../resources/idempotency-keys.ts"
import { paymentEvents } from "../resources/payment-inbox.ts"
import type { Resource } from "../resources/resource.ts"
import { subscriptions } from "../resources/subscriptions.ts"
import type { Row, SqliteConnection } from "./connection.ts"
import { ensureTable, tableOf } from "./kit-table.ts"

/** A record a table kept whole, as JSON text. */
export const json = (text: Row[string] | undefined) => JSON.parse(String(text)) as Record<string, unknown>
/** An instant a table kept in epoch milliseconds, in the JSON form a record's schema reads. */
export const instant = (millis: Row[string] | undefined) => new Date(Number(millis)).toISOString()

/** How a table held its records before its resource was declared, as each record's JSON form reads it. */
export interface EarlierTable {
  readonly table: string
  readonly declared: Resource<object>
  readonly record: (row: Row) => Record<string, unknown>
}

/** How each table of version 16 held its records. */
const earlier: ReadonlyArray<EarlierTable> = [
  { table: "payment_inbox", declared: paymentEvents as never, record: (row) => json(row.document) },
  { table: "subscriptions", declared: subscriptions as never, record: (row) => json(row.document) },
  {
    table: "idempotency_keys",
    declared: idempotencyKeys as never,
    record: (row) => ({
      id: idOf({ scope: String(row.scope), key: String(row.key) }),
      requestHash: row.request_hash,
      requestKey: row.request_key,
      expiresAt: instant(row.expires_at),
      leaseUntil: instant(row.lease_until),
      ...(row.response === null ? {} : { response: json(row.response) })
    })
  }
]

/**
 * Version 17: the payment inbox, the subscriptions and the idempotency keys became declarations:
 * their rows move into the tables their kit derives (the inbox's under the name MongoDB always gave
 * it, `payment_events`; a key's scope and key made its one id, as on MongoDB).
 * Every row is read as it was kept and written as its kit keeps it, in the step's transaction.
 */
export const schemaV17 = (db: SqliteConnection) => moveIntoKitTables(db, earlier)

/** Moves each table's rows into its kit's table (the one its declaration derives), dropping the table. */
export const moveIntoKitTables = (db: SqliteConnection, tables: ReadonlyArray<EarlierTable>) => {
  for (const { table, declared, record } of tables) {
    db.exec(`ALTER TABLE "${table}" RENAME TO "${table}_before_kit"`)
    ensureTable(db, declared)
    const made = tableOf(declared)
    const decode = Schema.decodeUnknownSync(Schema.toCodecJson(declared.schema))
    for (const row of db.all(`SELECT * FROM "${table}_before_kit"`)) {
      db.run(made.insertSql, ...made.rowValues(decode(record(row))))
    }
    db.exec(`DROP TABLE "${table}_before_kit"`)
  }
}
