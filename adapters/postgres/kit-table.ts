import { DateTime, Schema, SchemaAST } from "effect"
import { columnOf, keyOf, type Resource } from "../resources/resource.ts"
import type { Row, Run } from "./database.ts"
import { pgValueOf, queriesOf } from "./kit-queries.ts"

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`

/** PostgreSQL keeps at most 63 bytes of a name: cut here, a refusal's constraint names it as made. */
const identifier = (name: string) => name.slice(0, 63)

type SqlType = "text" | "numeric" | "boolean" | "timestamptz" | "jsonb"

const anInstant = DateTime.makeUnsafe(0)

/** The column type of a field, from its schema: none for the members of a union that hold none. */
const typeOf = (ast: SchemaAST.AST): SqlType | undefined => {
  if (SchemaAST.isNull(ast) || SchemaAST.isUndefined(ast)) return undefined
  if (SchemaAST.isUnion(ast)) {
    const kinds = new Set(ast.types.map(typeOf).filter((kind) => kind !== undefined))
    return kinds.size === 1 ? [...kinds][0] : "text"
  }
  if (SchemaAST.isBoolean(ast)) return "boolean"
  // A set or array field's values, found by one of them (`includes`).
  if (SchemaAST.isArrays(ast)) return "jsonb"
  if (SchemaAST.isNumber(ast)) return "numeric"
  if (SchemaAST.isLiteral(ast)) {
    return typeof ast.literal === "number" ? "numeric" : typeof ast.literal === "boolean" ? "boolean" : "text"
  }
  if (SchemaAST.isDeclaration(ast) && Schema.is(Schema.make(ast))(anInstant)) return "timestamptz"
  return "text"
}

/** Text compares byte by byte (`C`), as SQLite and the memory store order it, whatever the server's locale. */
const columnType = (type: SqlType | undefined) =>
  type === undefined || type === "text" ? 'text COLLATE "C"' : type

/**
 * A resource's table: the record's key, the record whole as jsonb (through its schema, both
 * ways), and each column apart, typed from the schema's field (a derived one is text), for its
 * indexes, conditions and orders.
 */
export const tableOf = <R extends object>(declared: Resource<R>) => {
  const json = Schema.toCodecJson(declared.schema)
  const encode = Schema.encodeSync(json)
  const decode = Schema.decodeUnknownSync(json)
  const fields = declared.schema.fields as Readonly<
    Record<string, { readonly ast: SchemaAST.AST } | undefined>
  >
  const table = quoted(declared.name)
  const columns = declared.columns.filter((column) => column !== declared.key)
  const columnSql = (column: string) => (column === declared.key ? '"key"' : quoted(column))
  const uniqueName = (named: ReadonlyArray<string>) =>
    identifier(`${declared.name}__unique__${named.join("__")}`)
  const typed = columns.map((column) => {
    const field = fields[column]
    return `, ${quoted(column)} ${columnType(field === undefined ? "text" : typeOf(field.ast))}`
  })

  /** What makes the table and its indexes where they are missing: its migration. */
  const ddl = [
    `CREATE TABLE IF NOT EXISTS ${table} ("key" text COLLATE "C" PRIMARY KEY, "document" jsonb NOT NULL${typed.join("")})`,
    ...(declared.unique ?? []).map(
      (named) =>
        `CREATE UNIQUE INDEX IF NOT EXISTS ${quoted(uniqueName(named))} ON ${table} (${named.map(columnSql).join(", ")})`
    ),
    ...(declared.indexes ?? []).map(
      (named) =>
        `CREATE INDEX IF NOT EXISTS ${quoted(identifier(`${declared.name}__by__${named.join("__")}`))} ON ${table} (${named.map(columnSql).join(", ")})`
    )
  ]
  const addColumn = (column: string) =>
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${typed[columns.indexOf(column)]?.slice(2)}`

  /** The columns a refusing constraint stands for: the key, or a unique combination. */
  const refused = new Map<string, ReadonlyArray<string>>([
    [identifier(`${declared.name}_pkey`), ["key"]],
    ...(declared.unique ?? []).map((named) => [uniqueName(named), named] as const)
  ])

  const names = `"key", "document"${columns.map((column) => `, ${quoted(column)}`).join("")}`
  const placeholders = ["$1", "$2::jsonb", ...columns.map((_, i) => `$${i + 3}`)].join(", ")
  const insertSql = `INSERT INTO ${table} (${names}) VALUES (${placeholders})`
  const set = [
    '"document" = EXCLUDED."document"',
    ...columns.map((c) => `${quoted(c)} = EXCLUDED.${quoted(c)}`)
  ]
  const putSql = `${insertSql} ON CONFLICT ("key") DO UPDATE SET ${set.join(", ")}`
  const insertNewSql = `${insertSql} ON CONFLICT DO NOTHING`
  const replaceSql = `UPDATE ${table} SET ("key", "document"${columns.map((c) => `, ${quoted(c)}`).join("")}) = (${placeholders}) WHERE "key" = $${columns.length + 3}`

  /** The values a row of `record` binds, in the order of the statements above. */
  const rowValues = (record: R): Array<unknown> => [
    keyOf(declared, record),
    JSON.stringify(encode(record)),
    ...columns.map((column) => pgValueOf(columnOf(declared, column, record)))
  ]
  const recordOf = (row: Row): R => {
    const stored = row.document as Record<string, unknown>
    return decode(declared.earlier === undefined ? stored : declared.earlier(stored))
  }

  /** Whether the capacity's owner holds as many records as allowed, counted under a lock of that owner. */
  const isFull = async (run: Run, record: R) => {
    const capacity = declared.capacity
    if (capacity === undefined) return false
    const owner = pgValueOf(columnOf(declared, capacity.column, record))
    await run("SELECT pg_advisory_xact_lock(hashtext($1))", [`${declared.name}/${String(owner)}`])
    const [held] = await run(
      `SELECT count(*)::int AS n FROM ${table} WHERE ${columnSql(capacity.column)} = $1`,
      [owner]
    )
    return Number(held?.n ?? 0) >= capacity.max
  }

  return {
    table,
    ddl,
    addColumn,
    refused,
    insertSql,
    putSql,
    insertNewSql,
    replaceSql,
    rowValues,
    recordOf,
    isFull,
    ...queriesOf(declared, table, columnSql)
  }
}
