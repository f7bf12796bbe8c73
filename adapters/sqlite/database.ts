import { Context, Deferred, Effect, Layer } from "effect"
import { type StoreUnavailable, StoreWrites } from "../../core/index.ts"
import { commitWatch } from "./commit-watch.ts"
import type { OpenSqlite, SqliteConnection } from "./connection.ts"
import { classify, dieOnViolation, type UniqueViolation } from "./failures.ts"
import { migrate } from "./migrations.ts"
import { isDatabaseFile, keepPrivate } from "./private-files.ts"
import { rememberedReads } from "./remembered-reads.ts"
import { type Joined, writeGroups } from "./write-groups.ts"

/** The reads and writes every SQLite store port makes on the open database file. */
export class SqliteDatabase extends Context.Service<SqliteDatabase, SqlHelpers>()(
  "roster/sqlite/SqliteDatabase"
) {}

export interface SqliteOptions {
  /** The database file, created when missing. */
  readonly path: string
  /** The runtime's driver (see `openBunSqlite`, `openNodeSqlite`). */
  readonly open: OpenSqlite
  /** How long a write waits for another process's write to finish before it is refused (503). */
  readonly busyTimeoutMs?: number
  /**
   * Whether the reads on every request's path are remembered until anything is committed (see
   * `rememberedReads`); on unless set to false, as the bench does to count each read's statements.
   */
  readonly rememberReads?: boolean
}

const tuned = (connection: SqliteConnection, busyTimeoutMs: number | undefined) => {
  connection.exec(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs ?? 5000)}`)
  connection.exec("PRAGMA journal_mode = WAL")
  // Every commit reaches the disk before it is acknowledged, WAL or not.
  connection.exec("PRAGMA synchronous = FULL")
  connection.exec("PRAGMA foreign_keys = ON")
  return connection
}

const opened = (options: SqliteOptions) =>
  Effect.acquireRelease(
    Effect.promise(() => options.open(options.path)).pipe(
      Effect.map((connection) => tuned(connection, options.busyTimeoutMs))
    ),
    (connection) => Effect.sync(() => connection.close())
  )

/**
 * Opens the file, in WAL mode (readers never wait for the writer) with a busy timeout (a second
 * process on the file waits its turn), and migrates its schema forward; closed with the layer. Two
 * connections: one writes, in groups (`writeGroups`); the other reads, and so sees only what was
 * committed, never a group still open. A database in memory has one connection for both. The file
 * and those SQLite keeps beside it are its owner's alone (`keepPrivate`).
 */
export const sqliteDatabaseLayer = (options: SqliteOptions) =>
  Layer.effect(
    SqliteDatabase,
    Effect.gen(function* () {
      yield* Effect.sync(() => keepPrivate(options.path))
      const writer = yield* opened(options)
      yield* migrate(writer)
      const reader = isDatabaseFile(options.path) ? yield* opened(options) : writer
      const remembers = reader !== writer && options.rememberReads !== false
      const remembered = rememberedReads(reader, commitWatch(reader), remembers)
      // What a write's answer is followed by reads what it wrote, never what was remembered before.
      const groups = writeGroups(writer, setImmediate, remembered.recheck)
      yield* Effect.addFinalizer(() => Effect.sync(groups.flush))
      // The WAL and shared-memory files exist once the schema was read: private like the database.
      yield* Effect.sync(() => keepPrivate(options.path))
      return sqlOn(reader, writer, groups, remembered)
    })
  )

/** How the store adapters touch the file: reads (remembered or not), and writes in groups. */
const sqlOn = (
  reader: SqliteConnection,
  writer: SqliteConnection,
  groups: ReturnType<typeof writeGroups>,
  remembered: ReturnType<typeof rememberedReads>
) => {
  const readOn =
    (db: SqliteConnection) =>
    <A>(use: (db: SqliteConnection) => A): Effect.Effect<A, StoreUnavailable> =>
      Effect.suspend(() => {
        try {
          return Effect.succeed(use(db))
        } catch (error) {
          return dieOnViolation(classify(error))
        }
      })

  /** Reads committed data, in one statement or several: SQLite's own snapshot holds for each statement. */
  const read = readOn(reader)

  /**
   * `read`, remembered under `key` until anything is committed (`rememberedReads`): for the reads on
   * every request's path. `key` names the statement and every value it binds; the answer must not
   * depend on the time.
   */
  const readRemembered = <A>(
    key: string,
    use: (db: SqliteConnection) => A
  ): Effect.Effect<A, StoreUnavailable> => read(() => remembered.read(key, use))

  /**
   * Reads on the writing connection, which also sees the writes of the group not yet committed: what
   * tells which row a unique constraint refused a write for, when the winner is in the same group.
   */
  const readWritten = readOn(writer)

  /**
   * Runs `use` in the open write group, taken for writing at once (`BEGIN IMMEDIATE`, so two
   * processes never both read and then both write), in a savepoint of its own: all of it is on disk
   * when it returns, or none of it. The audit entry of a change is written in the same savepoint as
   * the change.
   */
  const transaction = <A>(
    use: (db: SqliteConnection) => A
  ): Effect.Effect<A, UniqueViolation | StoreUnavailable> =>
    Effect.flatMap(StoreWrites, (ledger) =>
      Effect.suspend(() => {
        let joined: Joined<A>
        try {
          joined = groups.join(use)
        } catch (error) {
          return classify(error)
        }
        return Effect.matchEffect(Deferred.await(joined.committed), {
          onFailure: classify,
          onSuccess: () => {
            ledger.applied = true
            return Effect.succeed(joined.result)
          }
        })
      })
    )

  /** `transaction` for writes no unique constraint can refuse: a violation there is a bug. */
  const write = <A>(use: (db: SqliteConnection) => A): Effect.Effect<A, StoreUnavailable> =>
    dieOnViolation(transaction(use))

  return { read, readRemembered, readWritten, transaction, write }
}

export type SqlHelpers = ReturnType<typeof sqlOn>
