/** A value SQLite stores: what every query here binds and reads. */
export type SqlValue = string | number | bigint | null | Uint8Array

export type Row = Record<string, SqlValue>

/**
 * The little of a SQLite driver the adapters use, so the SQL is written once for every runtime:
 * `bun:sqlite` under Bun, `node:sqlite` under Deno and Node ≥ 22.5. Every call is synchronous, as
 * both drivers are; statements are prepared once and kept.
 */
export interface SqliteConnection {
  readonly exec: (sql: string) => void
  readonly all: (sql: string, ...params: ReadonlyArray<SqlValue>) => ReadonlyArray<Row>
  readonly get: (sql: string, ...params: ReadonlyArray<SqlValue>) => Row | undefined
  readonly run: (sql: string, ...params: ReadonlyArray<SqlValue>) => { readonly changes: number }
  readonly close: () => void
}

/** SQLite's result codes the adapters tell apart (https://sqlite.org/rescode.html). */
export const resultCodes = {
  busy: 5,
  locked: 6,
  constraintUnique: 2067,
  constraintPrimaryKey: 1555
} as const

/** SQLite's extended result code of a driver's error, whichever driver threw it. */
export const resultCodeOf = (error: unknown): number | undefined => {
  if (typeof error !== "object" || error === null) return undefined
  // bun:sqlite names it `errno`, node:sqlite `errcode`.
  const { errno, errcode } = error as { readonly errno?: unknown; readonly errcode?: unknown }
  if (typeof errcode === "number") return errcode
  if (typeof errno === "number") return errno
  return undefined
}

/** Opens a database file (created when missing) on the runtime's own driver. */
export type OpenSqlite = (path: string) => Promise<SqliteConnection>

interface Statement {
  all(...params: ReadonlyArray<SqlValue>): Array<Row>
  get(...params: ReadonlyArray<SqlValue>): Row | null | undefined
  run(...params: ReadonlyArray<SqlValue>): { changes: number | bigint }
}

/** A connection over a driver whose statements look alike (both do), each statement prepared once. */
const overStatements = (
  prepare: (sql: string) => Statement,
  exec: (sql: string) => void,
  close: () => void
): SqliteConnection => {
  const prepared = new Map<string, Statement>()
  const statement = (sql: string) => {
    let found = prepared.get(sql)
    if (found === undefined) {
      found = prepare(sql)
      prepared.set(sql, found)
    }
    return found
  }
  return {
    exec,
    all: (sql, ...params) => statement(sql).all(...params),
    get: (sql, ...params) => statement(sql).get(...params) ?? undefined,
    run: (sql, ...params) => ({ changes: Number(statement(sql).run(...params).changes) }),
    close
  }
}

// The drivers are named by variables: neither exists on every runtime, nor in every type set.
const bunDriver = "bun:sqlite"
const nodeDriver = "node:sqlite"

/** `bun:sqlite`, strict about bound parameters. */
export const openBunSqlite: OpenSqlite = async (path) => {
  const { Database } = (await import(bunDriver)) as {
    Database: new (
      path: string,
      options: { create: boolean; strict: boolean }
    ) => { query(sql: string): Statement; exec(sql: string): void; close(): void }
  }
  const db = new Database(path, { create: true, strict: true })
  return overStatements(
    (sql) => db.query(sql),
    (sql) => db.exec(sql),
    () => db.close()
  )
}

/** `node:sqlite` (Deno, and Node from 22.5). */
export const openNodeSqlite: OpenSqlite = async (path) => {
  const { DatabaseSync } = (await import(nodeDriver).catch(() => {
    throw new Error(
      "This runtime has no SQLite driver (Node before 22.5: bun:sqlite is Bun's, node:sqlite Deno's and Node's from 22.5), " +
        "so the default store cannot keep anything here. Choose one: run under Bun (npm start, bunx roster) or Node 22.5 or later (or Deno); " +
        "or keep the data elsewhere: MONGODB_URI (MongoDB), or ROSTER_STORE=memory (nothing kept across restarts)"
    )
  })) as {
    DatabaseSync: new (
      path: string
    ) => { prepare(sql: string): Statement; exec(sql: string): void; close(): void }
  }
  const db = new DatabaseSync(path)
  return overStatements(
    (sql) => db.prepare(sql),
    (sql) => db.exec(sql),
    () => db.close()
  )
}
