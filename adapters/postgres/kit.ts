import { Effect, Layer, Option } from "effect"
import { openOnce } from "../resources/open-once.ts"
import { Full, type KitRecords, type OpenedResource, RecordKit, Taken } from "../resources/records.ts"
import type { Resource, Where } from "../resources/resource.ts"
import { appendEntry } from "./audit-log.ts"
import { PostgresDatabase, type Run } from "./database.ts"
import type { UniqueViolation } from "./failures.ts"
import { ensureTable } from "./kit-schema.ts"
import { tableOf } from "./kit-table.ts"

/** A write no unique index can refuse: a refusal there is a bug. */
const violationIsDefect = <A, E>(effect: Effect.Effect<A, E | UniqueViolation>) =>
  Effect.catchTag(
    effect as Effect.Effect<A, UniqueViolation>,
    "UniqueViolation",
    Effect.die
  ) as Effect.Effect<A, Exclude<E, UniqueViolation>>

/**
 * A resource's records on PostgreSQL: each read one statement, each write one transaction with
 * its audit entry, so a change and its entry are committed together or not at all. The table's
 * unique indexes refuse what another record holds, whatever the number of instances (the refusal
 * names the index, and so the columns); a change locks the row it read (`FOR UPDATE`), so it is
 * made of the record as it is at the write; a capacity is counted under a lock of its owner.
 */
const recordsOf = <R extends object, C extends string>(
  declared: Resource<R, C>,
  db: PostgresDatabase["Service"]
): KitRecords<R, C> => {
  const t = tableOf(declared)
  const write = <A>(use: (run: Run) => Promise<A>) =>
    db
      .transaction(use)
      .pipe(
        Effect.catchTag("UniqueViolation", (violation) =>
          Effect.fail(
            new Taken({ resource: declared.name, columns: t.refused.get(violation.constraint) ?? [] })
          )
        )
      )
  /** The row `where` finds first, locked until the transaction ends. */
  const locked = async (run: Run, where: Where<C>) => {
    const select = t.selectSql(where, undefined, " LIMIT 1 FOR UPDATE")
    return (await run(select.sql, select.params))[0]
  }
  return {
    insert: (record, entry) =>
      write(async (run) => {
        if (await t.isFull(run, record)) return new Full({ resource: declared.name })
        await run(t.insertSql, t.rowValues(record))
        await appendEntry(run, entry)
        return undefined
      }).pipe(Effect.flatMap((refused) => (refused === undefined ? Effect.void : Effect.fail(refused)))),
    insertNew: (records) =>
      records.length === 0
        ? Effect.void
        : violationIsDefect(
            db.transaction(async (run) => {
              for (const record of records) {
                if (!(await t.isFull(run, record))) await run(t.insertNewSql, t.rowValues(record))
              }
            })
          ),
    put: (record, entry) =>
      write(async (run) => {
        await run(t.putSql, t.rowValues(record))
        await appendEntry(run, entry)
      }),
    find: (where) => {
      const select = t.selectSql(where, undefined, " LIMIT 1")
      return db
        .read(select.sql, select.params)
        .pipe(Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), t.recordOf)))
    },
    list: (where, order) => {
      const select = t.selectSql(where, order)
      return db.read(select.sql, select.params).pipe(Effect.map((rows) => rows.map(t.recordOf)))
    },
    count: (where) => {
      const { params, bind } = t.binder()
      const conditions = t.whereSql(where, bind)
      return db
        .read(`SELECT count(*)::int AS n FROM ${t.table} WHERE ${conditions}`, params)
        .pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0)))
    },
    modifyOrTaken: (where, change, entry) =>
      write(async (run) => {
        const row = await locked(run, where)
        if (row === undefined) return Option.none()
        const before = t.recordOf(row)
        const after = change(before)
        if (after === undefined) return Option.some({ before, after: before, changed: false })
        await run(t.replaceSql, [...t.rowValues(after), row.key])
        await appendEntry(run, entry)
        return Option.some({ before, after, changed: true })
      }),
    modifyAll: (where, change) =>
      violationIsDefect(
        db.transaction(async (run) => {
          const select = t.selectSql(where, undefined, " FOR UPDATE")
          let changed = 0
          for (const row of await run(select.sql, select.params)) {
            const after = change(t.recordOf(row))
            if (after === undefined) continue
            await run(t.replaceSql, [...t.rowValues(after), row.key])
            changed++
          }
          return changed
        })
      ),
    remove: (where, entry) =>
      violationIsDefect(
        db.transaction(async (run) => {
          const row = await locked(run, where)
          if (row === undefined) return Option.none()
          await run(`DELETE FROM ${t.table} WHERE "key" = $1`, [row.key])
          await appendEntry(run, entry)
          return Option.some(t.recordOf(row))
        })
      ),
    removeAll: (where) => {
      const { params, bind } = t.binder()
      const conditions = t.whereSql(where, bind)
      return violationIsDefect(
        db.transaction((run) => run(`DELETE FROM ${t.table} WHERE ${conditions}`, params))
      ).pipe(Effect.asVoid)
    }
  }
}

/**
 * One statement: a name's first use and a later one alike, the row locked by the upsert, so the
 * instances on one database each get a number of their own (the table: a dated migration).
 */
const nextSql = `INSERT INTO kit_sequences (name, value) VALUES ($1, 1)
  ON CONFLICT (name) DO UPDATE SET value = kit_sequences.value + 1 RETURNING value`

/**
 * The PostgreSQL kit: a resource opened makes its table, indexes and columns where they are
 * missing (`ensureTable`, its migration derived from its declaration), once per build.
 */
export const postgresKitLayer = Layer.effect(
  RecordKit,
  Effect.gen(function* () {
    const db = yield* PostgresDatabase
    const opened = new Map<string, OpenedResource>()
    return RecordKit.of({
      open: openOnce(
        (declared) => violationIsDefect(db.transaction((run) => ensureTable(run, declared))),
        (declared) => recordsOf(declared, db),
        opened
      ),
      opened: Effect.sync(() => [...opened.values()]),
      next: (sequence) =>
        violationIsDefect(db.transaction((run) => run(nextSql, [sequence]))).pipe(
          Effect.map(([row]) => Number(row?.value))
        )
    })
  })
)
