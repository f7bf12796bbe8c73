// What tells a remembered read that the file changed: `PRAGMA data_version`, which sees every
// commit, of this process or another.
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { commitWatch } from "../../adapters/sqlite/commit-watch.ts"
import { openBunSqlite, type SqliteConnection } from "../../adapters/sqlite/connection.ts"
import { scratchFile } from "../support/stores.ts"

/** The connection, counting the statements it runs. */
const counted = (connection: SqliteConnection) => {
  const tally = { statements: 0 }
  const count =
    <A extends Array<unknown>, B>(run: (...args: A) => B) =>
    (...args: A) => {
      tally.statements += 1
      return run(...args)
    }
  return {
    tally,
    connection: {
      ...connection,
      get: count(connection.get),
      all: count(connection.all),
      run: count(connection.run)
    }
  }
}

/** A WAL file with a table, a writer, and a reader that has read it (as the database layer leaves them). */
const walFile = Effect.gen(function* () {
  const path = yield* scratchFile
  const writer = yield* Effect.promise(() => openBunSqlite(path))
  writer.exec("PRAGMA journal_mode = WAL")
  writer.exec("CREATE TABLE t (v INTEGER)")
  const reader = yield* Effect.promise(() => openBunSqlite(path))
  reader.get("SELECT count(*) AS n FROM t")
  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      reader.close()
      writer.close()
    })
  )
  return { path, writer, reader }
})

/** Checks eight times, each right after a commit or the lack of one. */
const seesEveryCommit = (watch: () => boolean, writer: SqliteConnection, other: SqliteConnection) => {
  assert.isTrue(watch(), "the first answer is yes")
  assert.isFalse(watch(), "nothing committed since")
  writer.run("INSERT INTO t VALUES (1)")
  assert.isTrue(watch(), "the writer committed")
  assert.isFalse(watch())
  other.run("INSERT INTO t VALUES (2)")
  assert.isTrue(watch(), "another connection committed")
  writer.exec("BEGIN")
  writer.run("INSERT INTO t VALUES (3)")
  assert.isFalse(watch(), "a transaction still open is not a commit")
  writer.exec("COMMIT")
  assert.isTrue(watch(), "once it commits, it is")
  writer.exec("PRAGMA wal_checkpoint(TRUNCATE)")
  writer.run("INSERT INTO t VALUES (4)")
  assert.isTrue(watch(), "a commit into a WAL started again")
}

describe("commitWatch on SQLite", () => {
  it.effect("asks PRAGMA data_version on the reader and sees every commit", () =>
    Effect.gen(function* () {
      const { path, writer, reader } = yield* walFile
      const other = yield* Effect.promise(() => openBunSqlite(path))
      yield* Effect.addFinalizer(() => Effect.sync(() => other.close()))
      const { tally, connection } = counted(reader)
      const watch = commitWatch(connection)
      seesEveryCommit(watch, writer, other)
      assert.strictEqual(tally.statements, 8, "a statement per check")
    })
  )
})
