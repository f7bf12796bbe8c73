import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { type Db, MongoClient } from "mongodb"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { RoleStore } from "../../core/index.ts"
import { mongoUri } from "../support/stores.ts"

const onDatabase = <A>(database: string, use: (db: Db) => Promise<A>) =>
  Effect.promise(async () => {
    const client = new MongoClient(mongoUri())
    try {
      return await use(client.db(database))
    } finally {
      await client.close()
    }
  })

const scratch = Effect.acquireRelease(
  Effect.sync(() => `roster_test_${crypto.randomUUID().replaceAll("-", "")}`),
  (database) => onDatabase(database, (db) => db.dropDatabase())
)

describe("roles stored before deactivations were recorded, on MongoDB", () => {
  it.effect("an inactive one records its deactivation at the first start; an active one none", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        const stored = (roleKey: string, activeStatus: boolean, _id: number) => ({
          _id,
          organizationId: "default",
          name: roleKey,
          roleKey,
          activeStatus,
          createdAt: new Date(0),
          holders: 0
        })
        yield* onDatabase(database, (db) =>
          db.collection("roles").insertMany([stored("off", false, 1), stored("on", true, 2)] as never)
        )
        const before = Date.now()
        const roles = yield* Effect.flatMap(RoleStore, (store) => store.page(undefined, 10)).pipe(
          Effect.provide(Layer.orDie(mongoStores({ uri: Redacted.make(mongoUri()), database })))
        )
        const [off, on] = roles
        assert.isDefined(off?.deactivatedAt)
        assert.isAtLeast(off?.deactivatedAt?.epochMilliseconds ?? 0, before - 1000)
        assert.isUndefined(on?.deactivatedAt)
      })
    )
  )
})
