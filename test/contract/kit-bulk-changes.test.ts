// What every kit finds by a set a column's value is out of (`notIn`), and changes of every record
// a where finds (`modifyAll`): the same answers on memory, SQLite, MongoDB and PostgreSQL.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { auditTrailLayer, memoryKitLayer } from "../../adapters/memory/index.ts"
import { mongoDatabaseLayer } from "../../adapters/mongodb/database.ts"
import { mongoKitLayer } from "../../adapters/mongodb/kit.ts"
import { postgresDatabaseLayer, postgresKitLayer } from "../../adapters/postgres/index.ts"
import { organizations, StoredOrganization } from "../../adapters/resources/organizations.ts"
import { RecordKit } from "../../adapters/resources/records.ts"
import { sqliteDatabaseLayer } from "../../adapters/sqlite/database.ts"
import { openBunSqlite } from "../../adapters/sqlite/index.ts"
import { sqliteKitLayer } from "../../adapters/sqlite/kit.ts"
import { OrganizationId } from "../../core/index.ts"
import { at } from "../support/contract.ts"
import { mongoUri, scratchDatabase, scratchFile, scratchPostgres } from "../support/stores.ts"

type KitLayer = Layer.Layer<RecordKit, unknown, never>

/** Each kit on a store of its own: SQLite in the run under Bun, the others under Node. */
const kits: ReadonlyArray<readonly [string, () => KitLayer]> =
  process.env.ROSTER_TEST_STORES === "sqlite"
    ? [
        [
          "sqlite",
          () =>
            Layer.unwrap(
              Effect.map(scratchFile, (path) =>
                sqliteKitLayer.pipe(Layer.provide(sqliteDatabaseLayer({ path, open: openBunSqlite })))
              )
            )
        ]
      ]
    : [
        ["memory", () => memoryKitLayer.pipe(Layer.provide(auditTrailLayer))],
        [
          "mongodb",
          () =>
            Layer.unwrap(
              Effect.map(scratchDatabase, (database) =>
                mongoKitLayer.pipe(
                  Layer.provide(mongoDatabaseLayer({ uri: Redacted.make(mongoUri()), database }))
                )
              )
            )
        ],
        [
          "postgres",
          () =>
            Layer.unwrap(
              Effect.map(scratchPostgres, (url) =>
                postgresKitLayer.pipe(Layer.provide(postgresDatabaseLayer({ url: Redacted.make(url) })))
              )
            )
        ]
      ]

const organization = (n: number, deleting?: boolean) =>
  new StoredOrganization({
    id: OrganizationId.make(`org-${n}`),
    name: `Org ${n}`,
    slug: `org-${n}`,
    createdAt: at(n),
    ...(deleting === undefined ? {} : { deleting })
  })

const byCreation = { by: ["createdAt"] } as const

/** The organisations stored: one holding no `deleting`, one `false`, two `true`. */
const stored = Effect.gen(function* () {
  const records = yield* RecordKit.use((kit) => kit.open(organizations))
  for (const record of [
    organization(1),
    organization(2, false),
    organization(3, true),
    organization(4, true)
  ])
    yield* records.insert(record)
  return records
})

const ids = (found: ReadonlyArray<StoredOrganization>) => found.map((record) => record.id)

describe.each(kits)("the kit's bulk changes, on %s", (_, kit) => {
  it.effect("finds a value out of a set, none held only with orNone, and none at all in no set", () =>
    Effect.gen(function* () {
      const records = yield* stored
      const list = (where: Parameters<typeof records.list>[0]) =>
        Effect.map(records.list(where, byCreation), ids)
      assert.deepStrictEqual(yield* list({ deleting: { notIn: [true] } }), ["org-2"])
      assert.deepStrictEqual(yield* list({ deleting: { notIn: [true], orNone: true } }), ["org-1", "org-2"])
      assert.deepStrictEqual(yield* list({ deleting: { notIn: [] } }), ["org-2", "org-3", "org-4"])
      assert.deepStrictEqual(yield* list({ id: { notIn: ["org-1", "org-3"] } }), ["org-2", "org-4"])
      assert.deepStrictEqual(yield* list({ id: { in: ["org-1", "org-3"], notIn: ["org-3"] } }), ["org-1"])
      assert.strictEqual(yield* records.count({ slug: { notIn: ["org-4"] } }), 3)
    }).pipe(Effect.provide(kit()))
  )

  it.effect("changes every record a where finds, those its change leaves counted out", () =>
    Effect.gen(function* () {
      const records = yield* stored
      const renamed = yield* records.modifyAll({ deleting: true }, (record) =>
        record.id === "org-4" ? undefined : new StoredOrganization({ ...record, name: "Going" })
      )
      assert.strictEqual(renamed, 1)
      const names = (yield* records.list({}, byCreation)).map((record) => record.name)
      assert.deepStrictEqual(names, ["Org 1", "Org 2", "Going", "Org 4"])
      assert.strictEqual(
        yield* records.modifyAll({ id: "org-none" }, (record) => record),
        0,
        "no record found, none changed"
      )
      const all = yield* records.modifyAll({}, (record) => new StoredOrganization({ ...record, name: "All" }))
      assert.strictEqual(all, 4)
      const found = yield* records.find({ slug: "org-3", name: "All" })
      assert.isTrue(Option.isSome(found), "a changed record is found by its new value")
    }).pipe(Effect.provide(kit()))
  )
})
