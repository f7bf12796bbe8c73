import { Effect, Layer, Option } from "effect"
import { openOnce } from "../resources/open-once.ts"
import { Full, type KitRecords, type OpenedResource, RecordKit, Taken } from "../resources/records.ts"
import { keyOf, type Resource } from "../resources/resource.ts"
import { appendEntry } from "./audit-log.ts"
import { SqliteDatabase } from "./database.ts"
import { ensureTable, tableOf } from "./kit-table.ts"

/**
 * A resource's records on SQLite: each read one statement, each write one savepoint of the open
 * write group with its audit entry (see `SqliteDatabase`), so a change and its entry are on disk
 * together or not at all; a write checks the key and the unique columns in that savepoint, and the
 * table's unique indexes hold them whatever the number of processes.
 */
const recordsOf = <R extends object, C extends string>(
  declared: Resource<R, C>,
  sql: SqliteDatabase["Service"]
): KitRecords<R, C> => {
  const t = tableOf(declared)
  const { read, readRemembered, write } = sql
  const select = (where: Parameters<typeof t.whereSql>[0], suffix = "") => {
    const clause = t.whereSql(where)
    return {
      sql: `SELECT "key", "document" FROM ${t.table} WHERE ${clause.sql}${suffix}`,
      params: clause.params
    }
  }
  return {
    insert: (record, entry) =>
      write((db) => {
        const taken = t.takenBy(db, record)
        if (taken !== undefined) return new Taken({ resource: declared.name, columns: taken })
        if (t.isFull(db, record)) return new Full({ resource: declared.name })
        db.run(t.insertSql, ...t.rowValues(record))
        appendEntry(db, entry)
        return undefined
      }).pipe(Effect.flatMap((refused) => (refused === undefined ? Effect.void : Effect.fail(refused)))),
    insertNew: (records) =>
      records.length === 0
        ? Effect.void
        : write((db) => {
            for (const record of records) {
              if (t.takenBy(db, record) === undefined && !t.isFull(db, record))
                db.run(t.insertSql, ...t.rowValues(record))
            }
          }),
    put: (record, entry) =>
      write((db) => {
        const key = keyOf(declared, record)
        const taken = t.takenBy(db, record, key)
        if (taken !== undefined) return new Taken({ resource: declared.name, columns: taken })
        if (db.run(t.replaceSql, ...t.rowValues(record), key).changes === 0)
          db.run(t.insertSql, ...t.rowValues(record))
        appendEntry(db, entry)
        return undefined
      }).pipe(Effect.flatMap((refused) => (refused === undefined ? Effect.void : Effect.fail(refused)))),
    find: (where, options) => {
      const statement = select(where, " LIMIT 1")
      const use = (db: Parameters<Parameters<typeof read>[0]>[0]) =>
        Option.map(Option.fromNullishOr(db.get(statement.sql, ...statement.params)), t.recordOf)
      return options?.hot === true
        ? readRemembered(`${statement.sql} ${JSON.stringify(statement.params)}`, use)
        : read(use)
    },
    list: (where, order) =>
      read((db) => {
        const clause = t.whereSql(where)
        const ordering = t.orderSql(order)
        const conditions =
          ordering.after === undefined ? clause.sql : `${clause.sql} AND ${ordering.after.sql}`
        return db
          .all(
            `SELECT "key", "document" FROM ${t.table} WHERE ${conditions} ${ordering.sql}`,
            ...clause.params,
            ...(ordering.after?.params ?? [])
          )
          .map(t.recordOf)
      }),
    count: (where) =>
      read((db) => {
        const clause = t.whereSql(where)
        return Number(
          db.get(`SELECT count(*) AS n FROM ${t.table} WHERE ${clause.sql}`, ...clause.params)?.n ?? 0
        )
      }),
    modifyOrTaken: (where, change, entry) =>
      write((db) => {
        const statement = select(where, " LIMIT 1")
        const row = db.get(statement.sql, ...statement.params)
        if (row === undefined) return Option.none()
        const before = t.recordOf(row)
        const after = change(before)
        if (after === undefined) return Option.some({ before, after: before, changed: false })
        const taken = t.takenBy(db, after, String(row.key))
        if (taken !== undefined) return new Taken({ resource: declared.name, columns: taken })
        db.run(t.replaceSql, ...t.rowValues(after), String(row.key))
        appendEntry(db, entry)
        return Option.some({ before, after, changed: true })
      }).pipe(Effect.flatMap((done) => (done instanceof Taken ? Effect.fail(done) : Effect.succeed(done)))),
    modifyAll: (where, change) =>
      write((db) => {
        const statement = select(where)
        let changed = 0
        for (const row of db.all(statement.sql, ...statement.params)) {
          const after = change(t.recordOf(row))
          if (after === undefined) continue
          db.run(t.replaceSql, ...t.rowValues(after), String(row.key))
          changed++
        }
        return changed
      }),
    remove: (where, entry) =>
      write((db) => {
        const statement = select(where, " LIMIT 1")
        const row = db.get(statement.sql, ...statement.params)
        if (row === undefined) return Option.none()
        db.run(`DELETE FROM ${t.table} WHERE "key" = ?`, String(row.key))
        appendEntry(db, entry)
        return Option.some(t.recordOf(row))
      }),
    removeAll: (where) =>
      write((db) => {
        const clause = t.whereSql(where)
        db.run(`DELETE FROM ${t.table} WHERE ${clause.sql}`, ...clause.params)
      })
  }
}

/** Each named sequence's last number given, made with the kit (as its resources' tables are). */
const sequencesDdl = `CREATE TABLE IF NOT EXISTS "kit_sequences" ("name" TEXT PRIMARY KEY NOT NULL, "value" INTEGER NOT NULL)`

/** One statement, in the write's savepoint: whatever the processes, each gets a number of its own. */
const nextSql = `INSERT INTO "kit_sequences" ("name", "value") VALUES (?, 1)
  ON CONFLICT ("name") DO UPDATE SET "value" = "value" + 1 RETURNING "value"`

/**
 * The SQLite kit: a resource opened makes its table, indexes and columns where they are missing
 * (its migration, derived from its declaration), once per build.
 */
export const sqliteKitLayer = Layer.effect(
  RecordKit,
  Effect.gen(function* () {
    const sql = yield* SqliteDatabase
    const opened = new Map<string, OpenedResource>()
    yield* sql.write((db) => db.exec(sequencesDdl))
    return RecordKit.of({
      open: openOnce(
        (declared) => sql.write((db) => ensureTable(db, declared)),
        (declared) => recordsOf(declared, sql),
        opened
      ),
      opened: Effect.sync(() => [...opened.values()]),
      next: (sequence) => sql.write((db) => Number(db.get(nextSql, sequence)?.value))
    })
  })
)
