import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { postgresKitStores } from "../../adapters/postgres/index.ts"
import { openBunSqlite, sqliteStores } from "../../adapters/sqlite/index.ts"
import { PermissionId, ProductPermissionStore } from "../../core/index.ts"
import { at } from "../support/contract.ts"
import { scratch, storesOn } from "../support/mongo-scratch.ts"
import { kitStoreKinds, memoryTestStores, scratchFile, scratchPostgres } from "../support/stores.ts"

/**
 * Two instances on one store, as two processes on one file or one database build them. Two SQLite
 * instances in one thread take turns: one waiting for the file's write lock would block the thread
 * the other commits on; the file's lock and unique index hold it for two processes.
 */
const twoInstances = (kind: string) => {
  if (kind === "sqlite")
    return scratchFile.pipe(
      Effect.flatMap((path) =>
        Effect.all([
          Layer.build(sqliteStores({ path, open: openBunSqlite })),
          Layer.build(sqliteStores({ path, open: openBunSqlite }))
        ])
      )
    )
  if (kind === "mongodb")
    return scratch.pipe(
      Effect.flatMap((database) =>
        Effect.all([Layer.build(storesOn(database)), Layer.build(storesOn(database))])
      )
    )
  if (kind === "postgres")
    return scratchPostgres.pipe(
      Effect.map((url) => postgresKitStores({ url: Redacted.make(url) })),
      Effect.flatMap((stores) => Effect.all([Layer.build(stores), Layer.build(stores)]))
    )
  return Layer.build(memoryTestStores).pipe(Effect.map((one) => [one, one] as const))
}

describe.each(kitStoreKinds)("ProductPermissionStore on %s", (kind, stores) => {
  it.effect(
    "gives new keys ids from 1000 up, one per key; declaring again keeps the id and takes the description",
    () =>
      Effect.gen(function* () {
        const store = yield* ProductPermissionStore
        const first = yield* store.declare("projects.delete", "Delete projects", at(1))
        const second = yield* store.declare("invoices:read", "Read invoices", at(2))
        assert.strictEqual(first.id, 1000)
        assert.strictEqual(second.id, 1001)
        const again = yield* store.declare("projects.delete", "Delete a project", at(3))
        assert.strictEqual(again.id, 1000)
        assert.strictEqual(again.description, "Delete a project")
        assert.strictEqual(again.createdAt.epochMilliseconds, first.createdAt.epochMilliseconds)
        assert.strictEqual(
          Option.getOrThrow(yield* store.findById(PermissionId.make(1001))).key,
          "invoices:read"
        )
        assert.strictEqual(
          Option.getOrThrow(yield* store.findByKey("projects.delete")).description,
          "Delete a project"
        )
        assert.isTrue(Option.isNone(yield* store.findByKey("projects:delete")))
        assert.deepStrictEqual(
          (yield* store.list("declared")).map((permission) => permission.key),
          ["projects.delete", "invoices:read"]
        )
      }).pipe(Effect.provide(stores()))
  )

  it.effect(
    "retires through retiring; a retired key declared again gets its old id back, no other key ever does",
    () =>
      Effect.gen(function* () {
        const store = yield* ProductPermissionStore
        yield* store.declare("projects.delete", "Delete projects", at(1))
        assert.isTrue(Option.isNone(yield* store.move("projects.delete", "retiring", "retired")))
        assert.strictEqual(
          Option.getOrThrow(yield* store.move("projects.delete", "declared", "retiring")).state,
          "retiring"
        )
        assert.isTrue(Option.isNone(yield* store.move("projects.delete", "declared", "retiring")))
        assert.strictEqual(
          Option.getOrThrow(yield* store.move("projects.delete", "retiring", "retired")).state,
          "retired"
        )
        assert.deepStrictEqual(yield* store.list("declared"), [])
        const next = yield* store.declare("projects.archive", "Archive projects", at(2))
        assert.strictEqual(next.id, 1001)
        const back = yield* store.declare("projects.delete", "Delete projects", at(3))
        assert.strictEqual(back.id, 1000)
        assert.strictEqual(back.state, "declared")
        assert.isTrue(Option.isNone(yield* store.move("nothing.here", "declared", "retiring")))
      }).pipe(Effect.provide(stores()))
  )

  it.effect("two instances declaring at once get one id per key, and distinct keys distinct ids", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const [a, b] = yield* twoInstances(kind)
        const on = (context: Context.Context<ProductPermissionStore>) =>
          Context.get(context, ProductPermissionStore)
        const keys = ["a.one", "a.two", "a.three", "a.four"]
        const declared = yield* Effect.all(
          keys.flatMap((key) => [on(a).declare(key, "from a", at(1)), on(b).declare(key, "from b", at(1))]),
          { concurrency: kind === "sqlite" ? 1 : "unbounded" }
        )
        const idOf = new Map<string, number>()
        for (const record of declared) {
          const seen = idOf.get(record.key)
          if (seen !== undefined) assert.strictEqual(record.id, seen)
          idOf.set(record.key, record.id)
        }
        assert.deepStrictEqual([...new Set(idOf.values())].sort(), [1000, 1001, 1002, 1003])
        // One instance's fibers declaring at once, on every store.
        const same = yield* Effect.all(
          Array.from({ length: 6 }, (_, i) => on(a).declare(i % 2 === 0 ? "b.one" : "b.two", "", at(2))),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual([...new Set(same.map((record) => record.id))].sort(), [1004, 1005])
        const listed = yield* on(b).list("declared")
        assert.deepStrictEqual(
          listed.map((record) => record.id),
          [1000, 1001, 1002, 1003, 1004, 1005]
        )
      })
    )
  )
})
