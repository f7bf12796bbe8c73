import { Context, Effect, Layer, Schema } from "effect"
import { StoreUnavailable, StoreWrites } from "../../core/index.ts"
import { Metrics } from "../metrics/recorder.ts"
import { type OpenSqlite, resultCodeOf, resultCodes, type SqliteConnection } from "./connection.ts"
import { migrate } from "./migrations.ts"
import { keepPrivate } from "./private-files.ts"

/** A unique constraint refused the write: the caller turns it into the port's conflict error. */
export class UniqueViolation extends Schema.TaggedError<UniqueViolation>()("UniqueViolation", {}) {}

/** The open database file every SQLite store port works on. */
export class SqliteDatabase extends Context.Service<SqliteDatabase, SqliteConnection>()(
  "roster/sqlite/SqliteDatabase"
) {}

export interface SqliteOptions {
  /** The database file, created when missing. */
  readonly path: string
  /** The runtime's driver (see `openBunSqlite`, `openNodeSqlite`). */
  readonly open: OpenSqlite
  /** How long a write waits for another process's write to finish before it is refused (503). */
  readonly busyTimeoutMs?: number
}

/**
 * Opens the file, in WAL mode (readers never wait for the writer) with a busy timeout (a second
 * process on the file waits its turn), and migrates its schema forward; closed with the layer. The
 * file and those SQLite keeps beside it are its owner's alone (`keepPrivate`).
 */
export const sqliteDatabaseLayer = (options: SqliteOptions) =>
  Layer.effect(
    SqliteDatabase,
    Effect.acquireRelease(
      Effect.promise(() => {
        keepPrivate(options.path)
        return options.open(options.path)
      }).pipe(
        Effect.tap((connection) =>
          Effect.sync(() => {
            connection.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`)
            connection.exec("PRAGMA journal_mode = WAL")
            // Every commit reaches the disk before it is acknowledged, WAL or not.
            connection.exec("PRAGMA synchronous = FULL")
            connection.exec("PRAGMA foreign_keys = ON")
          })
        ),
        Effect.tap((connection) => migrate(connection)),
        // The WAL and shared-memory files exist once the schema was read: private like the database.
        Effect.tap(() => Effect.sync(() => keepPrivate(options.path)))
      ),
      (connection) => Effect.sync(() => connection.close())
    )
  )

const countFailure = Effect.flatMap(Metrics, (metrics) => Effect.sync(() => metrics?.storeError("sqlite")))

const isBusy = (code: number | undefined) =>
  code !== undefined && ((code & 0xff) === resultCodes.busy || (code & 0xff) === resultCodes.locked)

const isUnique = (code: number | undefined) =>
  code === resultCodes.constraintUnique || code === resultCodes.constraintPrimaryKey

/** A driver's error as the ports know it: busy is "not now", a unique constraint a conflict, the rest a bug. */
const classify = (error: unknown): Effect.Effect<never, UniqueViolation | StoreUnavailable> => {
  const code = resultCodeOf(error)
  if (isBusy(code)) return Effect.andThen(countFailure, Effect.fail(new StoreUnavailable()))
  if (isUnique(code)) return Effect.fail(new UniqueViolation())
  return Effect.die(error)
}

const dieOnViolation = <A, E>(effect: Effect.Effect<A, E | UniqueViolation>) =>
  Effect.catchTag(effect as Effect.Effect<A, UniqueViolation>, "UniqueViolation", (violation) =>
    Effect.die(violation)
  ) as Effect.Effect<A, Exclude<E, UniqueViolation>>

/** The three ways the store adapters touch the file. */
export const sqlOn = (db: SqliteConnection) => {
  /** Reads in one statement or several: SQLite's own snapshot holds for each statement. */
  const read = <A>(use: (db: SqliteConnection) => A): Effect.Effect<A, StoreUnavailable> =>
    Effect.suspend(() => {
      try {
        return Effect.succeed(use(db))
      } catch (error) {
        return dieOnViolation(classify(error))
      }
    })

  /**
   * Runs `use` in one transaction, taken for writing at once (`BEGIN IMMEDIATE`, so two processes
   * never both read and then both write): all of it is on disk when it returns, or none of it. The
   * audit entry of a change is written in the same transaction as the change.
   */
  const transaction = <A>(
    use: (db: SqliteConnection) => A
  ): Effect.Effect<A, UniqueViolation | StoreUnavailable> =>
    Effect.flatMap(StoreWrites, (ledger) =>
      Effect.suspend(() => {
        try {
          db.exec("BEGIN IMMEDIATE")
        } catch (error) {
          return classify(error)
        }
        try {
          const result = use(db)
          db.exec("COMMIT")
          ledger.applied = true
          return Effect.succeed(result)
        } catch (error) {
          try {
            db.exec("ROLLBACK")
          } catch {
            // A failed COMMIT may have rolled back already.
          }
          return classify(error)
        }
      })
    )

  /** `transaction` for writes no unique constraint can refuse: a violation there is a bug. */
  const write = <A>(use: (db: SqliteConnection) => A): Effect.Effect<A, StoreUnavailable> =>
    dieOnViolation(transaction(use))

  return { read, transaction, write }
}

/** The SQL helpers of the database the layer is built on. */
export const sqlite = SqliteDatabase.useSync(sqlOn)
