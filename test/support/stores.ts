import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, Redacted } from "effect"
import { MongoClient } from "mongodb"
import { Client } from "pg"
import { inject } from "vitest"
import { MemoryStores } from "../../adapters/memory/index.ts"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { postgresKitStores } from "../../adapters/postgres/index.ts"
import { openBunSqlite, sqliteStores } from "../../adapters/sqlite/index.ts"

/** The MongoDB the database tests use: `MONGODB_URI` when set, else the FerretDB of this run. */
export const mongoUri = () => inject("mongoUri")

/** A database of its own for one test, dropped when the test's layer is released. */
export const scratchDatabase = Effect.acquireRelease(
  Effect.sync(() => `roster_test_${crypto.randomUUID().replaceAll("-", "")}`),
  (database) =>
    Effect.promise(async () => {
      const client = new MongoClient(mongoUri(), { serverSelectionTimeoutMS: 3000 })
      await client.db(database).dropDatabase()
      await client.close()
    })
)

/** Every store port on MongoDB (FerretDB unless `MONGODB_URI` names a server), in a fresh database. */
export const mongoTestStores = Layer.unwrap(
  Effect.map(scratchDatabase, (database) => mongoStores({ uri: Redacted.make(mongoUri()), database }))
)

/** The same ports in process memory. */
export const memoryTestStores = MemoryStores

/** A SQLite file of its own for one test, deleted (with its WAL files) when the test's layer is released. */
export const scratchFile = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "roster-sqlite-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
).pipe(Effect.map((directory) => join(directory, "roster.db")))

/** Every store port on SQLite (Bun's driver: the SQLite suites run under Bun), in a fresh file. */
export const sqliteTestStores = Layer.unwrap(
  Effect.map(scratchFile, (path) => sqliteStores({ path, open: openBunSqlite }))
)

/** The PostgreSQL of this run (see `startPostgres`): its own database, to make others from. */
export const postgresUrl = () => inject("postgresUrl")

/** Runs `sql` on the server's own database, on a connection of its own. */
const onPostgresServer = (sql: string) =>
  Effect.promise(async () => {
    const client = new Client({ connectionString: postgresUrl() })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  })

/** A PostgreSQL database of its own for one test (its URL), dropped, its connections ended, when released. */
export const scratchPostgres = Effect.acquireRelease(
  Effect.gen(function* () {
    const database = `roster_test_${crypto.randomUUID().replaceAll("-", "")}`
    // A copy of the empty template's files: faster than logging the copy, on a server that keeps no logs safe.
    yield* onPostgresServer(`CREATE DATABASE ${database} TEMPLATE template0 STRATEGY FILE_COPY`)
    const url = new URL(postgresUrl())
    url.pathname = `/${database}`
    return { database, url: url.toString() }
  }),
  ({ database }) => onPostgresServer(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
).pipe(Effect.map(({ url }) => url))

/**
 * The ports PostgreSQL serves so far (the declared resources' stores and the audit record), in a
 * fresh database, over the in-memory stores for the ports it has none of yet (members, say).
 */
export const postgresKitTestStores = Layer.unwrap(
  Effect.map(scratchPostgres, (url) =>
    Layer.merge(MemoryStores, postgresKitStores({ url: Redacted.make(url) }))
  )
)

/**
 * The stores the contract suites run against: memory and MongoDB, or SQLite in the run under Bun
 * (`ROSTER_TEST_STORES=sqlite`), whose driver only a runtime that has SQLite can load.
 */
export const storeKinds: ReadonlyArray<
  readonly [string, () => typeof memoryTestStores | typeof mongoTestStores | typeof sqliteTestStores]
> =
  process.env.ROSTER_TEST_STORES === "sqlite"
    ? [["sqlite", () => sqliteTestStores]]
    : [
        ["memory", () => memoryTestStores],
        ["mongodb", () => mongoTestStores]
      ]

/**
 * The stores the contract suites of the declared resources (adapters/resources/declared.ts) run
 * against: those of `storeKinds`, and PostgreSQL in the run under Node, where its kit serves them.
 */
export const kitStoreKinds: ReadonlyArray<
  readonly [string, () => ReturnType<(typeof storeKinds)[number][1]> | typeof postgresKitTestStores]
> =
  process.env.ROSTER_TEST_STORES === "sqlite"
    ? storeKinds
    : [...storeKinds, ["postgres", () => postgresKitTestStores]]
