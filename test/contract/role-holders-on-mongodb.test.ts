import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { MongoClient } from "mongodb"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { RoleId, RoleInUse, RoleStore } from "../../core/index.ts"
import { mongoUri } from "../support/stores.ts"

const legacyRole = (id: number) => ({
  _id: id,
  name: `Role ${id}`,
  roleKey: `role-${id}`,
  activeStatus: true,
  createdAt: new Date(0)
})

/** A database written by a version that did not count role holders, dropped after the test. */
const legacyDatabase = Effect.acquireRelease(
  Effect.promise(async () => {
    const name = `roster_test_${crypto.randomUUID().replaceAll("-", "")}`
    const client = new MongoClient(mongoUri())
    const db = client.db(name)
    await db.collection("roles").insertMany([legacyRole(1), legacyRole(2)] as never)
    await db.collection("members").insertOne({
      _id: "member-ada",
      username: "ada",
      usernameKey: "ada",
      email: "ada@example.com",
      passwordHash: "$scrypt$ln=10,r=8,p=1$c2FsdA$aGFzaA",
      activestatus: true,
      accountActiveStatus: true,
      sessionEpoch: 0,
      roleId: 1,
      createdAt: new Date(0)
    } as never)
    return { client, db }
  }),
  ({ client, db }) => Effect.promise(() => db.dropDatabase().then(() => client.close()))
)

describe("role holders on MongoDB", () => {
  it.effect("roles stored before holders were counted are counted at start", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { db } = yield* legacyDatabase
        yield* Effect.gen(function* () {
          const roles = yield* RoleStore
          assert.instanceOf(yield* Effect.flip(roles.remove(RoleId.make(1))), RoleInUse, "Ada holds role 1")
          assert.isTrue(Option.isSome(yield* roles.remove(RoleId.make(2))), "nobody holds role 2")
        }).pipe(Effect.provide(mongoStores({ uri: Redacted.make(mongoUri()), database: db.databaseName })))
        const counted = yield* Effect.promise(() => db.collection("roles").findOne({ _id: 1 } as never))
        assert.strictEqual(counted?.holders, 1)
      })
    )
  )

  it.effect(
    "a holder counted by a process that died before writing its member holds the role for a minute only",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { db } = yield* legacyDatabase
          yield* Effect.gen(function* () {
            const roles = yield* RoleStore
            // What a member's write leaves when its process dies between counting and writing.
            yield* Effect.promise(() =>
              db.collection("roles").updateOne({ _id: 2 } as never, {
                $inc: { holders: 1 },
                $set: { holdersChangedAt: new Date(0) }
              })
            )
            yield* TestClock.adjust("59 seconds")
            assert.instanceOf(
              yield* Effect.flip(roles.remove(RoleId.make(2))),
              RoleInUse,
              "a recent count holds it"
            )
            yield* TestClock.adjust("2 seconds")
            assert.isTrue(Option.isSome(yield* roles.remove(RoleId.make(2))), "an abandoned one does not")
            yield* TestClock.adjust("2 minutes")
            assert.instanceOf(
              yield* Effect.flip(roles.remove(RoleId.make(1))),
              RoleInUse,
              "Ada's role, however old"
            )
          }).pipe(Effect.provide(mongoStores({ uri: Redacted.make(mongoUri()), database: db.databaseName })))
        })
      )
  )
})
