import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { auditTrailLayer, memoryKitLayer } from "../../adapters/memory/index.ts"
import { mongoDatabaseLayer } from "../../adapters/mongodb/index.ts"
import { mongoKitLayer } from "../../adapters/mongodb/kit.ts"
import { postgresDatabaseLayer, postgresKitLayer } from "../../adapters/postgres/index.ts"
import { RecordKit } from "../../adapters/resources/records.ts"
import { sqliteDatabaseLayer } from "../../adapters/sqlite/database.ts"
import { openBunSqlite } from "../../adapters/sqlite/index.ts"
import { sqliteKitLayer } from "../../adapters/sqlite/kit.ts"
import { inParallel } from "../support/contract.ts"
import { mongoUri, scratchDatabase, scratchFile, scratchPostgres } from "../support/stores.ts"

type Kit = RecordKit["Service"]

/** One instance's kit on the database `instance` is given, built for the test's scope. */
const built = (layer: Layer.Layer<RecordKit, unknown>) =>
  Effect.map(Layer.build(Layer.orDie(layer)), (context) => Context.get(context, RecordKit))

/**
 * For each kind of store, a database of the test's own and a way to start instances on it; in
 * memory there is one process, so every "instance" is the one kit.
 */
const memory = Effect.map(
  built(memoryKitLayer.pipe(Layer.provide(auditTrailLayer))),
  (kit) => () => Effect.succeed(kit)
)
const sqlite = Effect.map(
  scratchFile,
  (path) => () =>
    built(sqliteKitLayer.pipe(Layer.provide(sqliteDatabaseLayer({ path, open: openBunSqlite }))))
)
const mongodb = Effect.map(
  scratchDatabase,
  (database) => () =>
    built(mongoKitLayer.pipe(Layer.provide(mongoDatabaseLayer({ uri: Redacted.make(mongoUri()), database }))))
)
const postgres = Effect.map(
  scratchPostgres,
  (url) => () =>
    built(postgresKitLayer.pipe(Layer.provide(postgresDatabaseLayer({ url: Redacted.make(url) }))))
)

type Database = typeof sqlite
const onSqlite = process.env.ROSTER_TEST_STORES === "sqlite"
const persistent: ReadonlyArray<readonly [string, Database]> = onSqlite
  ? [["sqlite", sqlite]]
  : [
      ["mongodb", mongodb],
      ["postgres", postgres]
    ]
const kinds: ReadonlyArray<readonly [string, Database]> = onSqlite
  ? persistent
  : [["memory", memory as unknown as Database], ...persistent]

const numbers = (kit: Kit, sequence: string, count: number) =>
  Effect.forEach(Array.from({ length: count }), () => kit.next(sequence))

describe.each(kinds)("the kit's sequences on %s", (_, database) => {
  it.effect("a sequence counts from 1, one at a time; another counts apart", () =>
    Effect.gen(function* () {
      const kit = yield* (yield* database)()
      assert.deepStrictEqual(yield* numbers(kit, "roles", 3), [1, 2, 3])
      assert.deepStrictEqual(yield* numbers(kit, "role_permissions", 2), [1, 2])
      assert.strictEqual(yield* kit.next("roles"), 4)
    }).pipe(Effect.scoped)
  )

  it.effect("40 numbers asked of two instances on one database at once: each given once", () =>
    Effect.gen(function* () {
      const start = yield* database
      const [one, two] = [yield* start(), yield* start()]
      const ask = (i: number) => (i % 2 === 0 ? one : two).next("roles")
      // Two SQLite instances in one thread take turns: one waiting for the file's write lock would
      // block the thread the other commits on; the file's lock holds it for two processes.
      const given = yield* onSqlite
        ? Effect.forEach(
            Array.from({ length: 40 }, (_, i) => i),
            ask
          )
        : inParallel(40, ask)
      assert.deepStrictEqual(
        [...given].sort((a, b) => a - b),
        Array.from({ length: 40 }, (_, i) => i + 1)
      )
    }).pipe(Effect.scoped)
  )
})

describe.each(persistent)("the kit's sequences on %s, kept", (_, database) => {
  it.effect("an instance started later goes on from the last number given, never back", () =>
    Effect.gen(function* () {
      const start = yield* database
      yield* Effect.scoped(Effect.flatMap(start(), (kit) => numbers(kit, "roles", 2)))
      const later = yield* start()
      assert.strictEqual(yield* later.next("roles"), 3)
    }).pipe(Effect.scoped)
  )
})
