import { DateTime, Schema } from "effect"
import {
  type AnyOf,
  type ColumnValue,
  columnOf,
  conditionsOf,
  isAnyOf,
  isRange,
  keyOf,
  type Order,
  type Resource,
  type Where
} from "../resources/resource.ts"
import type { Row, SqliteConnection, SqlValue } from "./connection.ts"
import { likePrefix } from "./values.ts"

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * A column's value as SQLite keeps it: an instant in epoch milliseconds, a flag 1 or 0, a set's
 * values as a JSON array (which `json_each` reads), none NULL.
 */
export const sqlValueOf = (value: ColumnValue): SqlValue => {
  if (value === undefined || value === null) return null
  if (typeof value === "boolean") return value ? 1 : 0
  if (DateTime.isDateTime(value)) return DateTime.toEpochMillis(value)
  if (typeof value === "object") return JSON.stringify(value)
  return value
}

/**
 * A resource's table: the record's key, the record whole as JSON (through its schema, both ways),
 * and each column apart, for its indexes, conditions and orders.
 */
export const tableOf = <R extends object>(declared: Resource<R>) => {
  const json = Schema.toCodecJson(declared.schema)
  const encode = Schema.encodeSync(json)
  const decode = Schema.decodeUnknownSync(json)
  const table = quoted(declared.name)
  const columns = declared.columns.filter((column) => column !== declared.key)
  const columnSql = (column: string) => (column === declared.key ? '"key"' : quoted(column))
  const indexName = (kind: string, named: ReadonlyArray<string>) =>
    quoted(`${declared.name}__${kind}__${named.join("__")}`)

  /** The statements that make the table and its indexes where they are missing: its migration. */
  const ddl = [
    `CREATE TABLE IF NOT EXISTS ${table} ("key" TEXT PRIMARY KEY NOT NULL, "document" TEXT NOT NULL${columns
      .map((column) => `, ${quoted(column)}`)
      .join("")})`,
    ...(declared.unique ?? []).map(
      (named) =>
        `CREATE UNIQUE INDEX IF NOT EXISTS ${indexName("unique", named)} ON ${table} (${named.map(columnSql).join(", ")})`
    ),
    ...(declared.indexes ?? []).map(
      (named) =>
        `CREATE INDEX IF NOT EXISTS ${indexName("by", named)} ON ${table} (${named.map(columnSql).join(", ")})`
    )
  ]

  const insertSql = `INSERT INTO ${table} ("key", "document"${columns.map((c) => `, ${quoted(c)}`).join("")})
    VALUES (?, ?${columns.map(() => ", ?").join("")})`
  const replaceSql = `UPDATE ${table} SET "key" = ?, "document" = ?${columns
    .map((c) => `, ${quoted(c)} = ?`)
    .join("")} WHERE "key" = ?`

  /** The values a row of `record` binds, in the order of `insertSql`. */
  const rowValues = (record: R): Array<SqlValue> => [
    keyOf(declared, record),
    JSON.stringify(encode(record)),
    ...columns.map((column) => sqlValueOf(columnOf(declared, column, record)))
  ]
  const recordOf = (row: Row): R => {
    const stored = JSON.parse(String(row.document)) as Record<string, unknown>
    return decode(declared.earlier === undefined ? stored : declared.earlier(stored))
  }

  /** A where's SQL and the values it binds: its clauses joined by OR (SQLite reads each by its index). */
  const whereSql = (where: AnyOf<string>): { readonly sql: string; readonly params: Array<SqlValue> } => {
    if (!isAnyOf(where)) return clauseSql(where)
    const clauses = where.map(clauseSql)
    return {
      // Whole in parentheses: what follows (a list's place) is ANDed with all of it.
      sql: clauses.length === 0 ? "0" : `(${clauses.map((clause) => `(${clause.sql})`).join(" OR ")})`,
      params: clauses.flatMap((clause) => clause.params)
    }
  }

  /** A where clause's SQL and the values it binds. */
  const clauseSql = (where: Where<string>) => {
    const parts: Array<string> = []
    const params: Array<SqlValue> = []
    for (const [column, condition] of conditionsOf(where)) {
      const name = columnSql(column)
      if (!isRange(condition)) {
        const value = sqlValueOf(condition)
        if (value === null) parts.push(`${name} IS NULL`)
        else {
          parts.push(`${name} = ?`)
          params.push(value)
        }
        continue
      }
      const ranges: Array<string> = []
      for (const [operator, bound] of [
        ["<", condition.lt],
        ["<=", condition.lte],
        [">", condition.gt],
        [">=", condition.gte]
      ] as const) {
        if (bound === undefined) continue
        ranges.push(`${name} ${operator} ?`)
        params.push(sqlValueOf(bound))
      }
      if (condition.in !== undefined) {
        ranges.push(
          condition.in.length === 0 ? "0" : `${name} IN (${condition.in.map(() => "?").join(", ")})`
        )
        params.push(...condition.in.map(sqlValueOf))
      }
      if (condition.present === true) ranges.push(`${name} IS NOT NULL`)
      if (condition.notIn !== undefined) {
        ranges.push(
          condition.notIn.length === 0
            ? `${name} IS NOT NULL`
            : `${name} NOT IN (${condition.notIn.map(() => "?").join(", ")})`
        )
        params.push(...condition.notIn.map(sqlValueOf))
      }
      if (condition.startsWith !== undefined) {
        ranges.push(`${name} LIKE ? ESCAPE '\\'`)
        params.push(likePrefix(condition.startsWith))
      }
      if (condition.includes !== undefined) {
        ranges.push(`EXISTS (SELECT 1 FROM json_each(${name}) WHERE "value" = ?)`)
        params.push(condition.includes)
      }
      const all = ranges.length === 0 ? "1" : ranges.join(" AND ")
      parts.push(condition.orNone === true ? `(${name} IS NULL OR (${all}))` : `(${all})`)
    }
    return { sql: parts.length === 0 ? "1" : parts.join(" AND "), params }
  }

  /** An order's SQL, with where it starts when it starts after a place. */
  const orderSql = (order: Order<R, string>) => {
    const direction = order.descending === true ? "DESC" : "ASC"
    const named = [...order.by.map(columnSql), '"key"']
    const after =
      order.after === undefined
        ? undefined
        : {
            sql: `(${named.join(", ")}) ${order.descending === true ? "<" : ">"} (${named.map(() => "?").join(", ")})`,
            params: [
              ...order.by.map((column) => sqlValueOf(columnOf(declared, column, order.after as R))),
              keyOf(declared, order.after as R)
            ]
          }
    return {
      sql: `ORDER BY ${named.map((name) => `${name} ${direction}`).join(", ")}${
        order.limit === undefined ? "" : ` LIMIT ${Math.max(0, Math.trunc(order.limit))}`
      }`,
      after
    }
  }

  /** The combinations that `record` would share with another row, the key first. */
  const takenBy = (db: SqliteConnection, record: R, except?: string): ReadonlyArray<string> | undefined => {
    const key = keyOf(declared, record)
    if (except === undefined && db.get(`SELECT 1 FROM ${table} WHERE "key" = ?`, key) !== undefined)
      return ["key"]
    for (const named of declared.unique ?? []) {
      const values = named.map((column) => sqlValueOf(columnOf(declared, column, record)))
      if (values.includes(null)) continue
      const holder = db.get(
        `SELECT "key" FROM ${table} WHERE ${named.map((column) => `${columnSql(column)} = ?`).join(" AND ")}`,
        ...values
      )
      if (holder !== undefined && holder.key !== (except ?? key)) return named
    }
    return undefined
  }

  const isFull = (db: SqliteConnection, record: R) => {
    const capacity = declared.capacity
    if (capacity === undefined) return false
    const held = db.get(
      `SELECT count(*) AS n FROM ${table} WHERE ${columnSql(capacity.column)} = ?`,
      sqlValueOf(columnOf(declared, capacity.column, record))
    )
    return Number(held?.n ?? 0) >= capacity.max
  }

  return { table, ddl, insertSql, replaceSql, rowValues, recordOf, whereSql, orderSql, takenBy, isFull }
}

/** Makes a resource's table and indexes where they are missing, and adds the columns it gained since. */
export const ensureTable = <R extends object>(db: SqliteConnection, declared: Resource<R>) => {
  const made = tableOf(declared)
  db.exec(made.ddl[0] ?? "")
  const present = new Set(db.all(`PRAGMA table_info(${made.table})`).map((row) => String(row.name)))
  const missing = declared.columns.filter((column) => column !== declared.key && !present.has(column))
  if (missing.length > 0) {
    for (const column of missing) db.exec(`ALTER TABLE ${made.table} ADD COLUMN ${quoted(column)}`)
    // What rows stored before the columns existed hold in them, from their documents.
    for (const row of db.all(`SELECT "key", "document" FROM ${made.table}`)) {
      db.run(made.replaceSql, ...made.rowValues(made.recordOf(row)), String(row.key))
    }
  }
  for (const statement of made.ddl.slice(1)) db.exec(statement)
}
