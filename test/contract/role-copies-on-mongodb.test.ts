import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { MongoDatabase, mongoDatabaseLayer } from "../../adapters/mongodb/database.ts"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { makeRoleLookup, type StoredRole } from "../../adapters/mongodb/role-lookup.ts"
import { PermissionId, RoleLookup, RolePermissionStore, RoleStore } from "../../core/index.ts"
import { at, newRole } from "../support/contract.ts"
import { withReadsOvertaken } from "../support/overtaken-reads.ts"
import { mongoUri, scratchDatabase } from "../support/stores.ts"

/** The stores on a scratch database, a connection of the test's own to it, and a role holding one permission. */
const aRole = Effect.gen(function* () {
  const database = yield* scratchDatabase
  const options = { uri: Redacted.make(mongoUri()), database }
  const stores = yield* Layer.build(Layer.orDie(mongoStores(options)))
  const db = Context.get(yield* Layer.build(Layer.orDie(mongoDatabaseLayer(options))), MongoDatabase)
  const role = yield* Effect.flatMap(RoleStore, (roles) => roles.insert(newRole("staff"))).pipe(
    Effect.provide(stores)
  )
  const grant = (permission: number) =>
    Effect.flatMap(RolePermissionStore, (permissions) =>
      permissions.grant(role.id, PermissionId.make(permission), at(1))
    ).pipe(Effect.provide(stores))
  yield* grant(1)
  const roleDocument = () =>
    Effect.promise(() => db.collection<StoredRole>("roles").findOne({ _id: role.id }))
  const heldNow = Effect.flatMap(RoleLookup, (lookup) => lookup.find(role.id)).pipe(
    Effect.map(Option.map((found) => found.permissionIds.map(Number))),
    Effect.provide(stores)
  )
  return { db, role, grant, roleDocument, heldNow }
})

describe("copies of a role's permissions on MongoDB", () => {
  it.effect("a role read with its record keeps a copy; a change of its permissions takes it away", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { grant, roleDocument, heldNow } = yield* aRole
        assert.isUndefined((yield* roleDocument())?.permissionCopy, "the grant took the new role's copy away")
        assert.deepStrictEqual(yield* heldNow, Option.some([1]))
        assert.deepStrictEqual((yield* roleDocument())?.permissionCopy, [1], "kept after a full read")
        yield* grant(2)
        const granted = yield* roleDocument()
        assert.isUndefined(granted?.permissionCopy, "taken away by the grant")
        assert.deepStrictEqual(granted?.fences, [], "and the fence taken down once it was done")
        assert.deepStrictEqual(yield* heldNow, Option.some([1, 2]))
        assert.deepStrictEqual((yield* roleDocument())?.permissionCopy, [1, 2], "kept again")
      })
    )
  )

  it.effect("a read that overlaps a change of the permissions does not keep what it read before it", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { db, role, grant, roleDocument, heldNow } = yield* aRole
        // A lookup whose read of the record is overtaken by a grant before it keeps a copy.
        const racingDb = withReadsOvertaken(db, "role_permissions", Effect.scoped(grant(2)))
        const racing = yield* makeRoleLookup.pipe(Effect.provideService(MongoDatabase, racingDb))
        const read = yield* racing.find(role.id)
        assert.deepStrictEqual(
          Option.map(read, (found) => found.permissionIds.map(Number)),
          Option.some([1]),
          "it answers what it read"
        )
        assert.isUndefined((yield* roleDocument())?.permissionCopy, "but keeps no copy of it")
        assert.deepStrictEqual(yield* heldNow, Option.some([1, 2]))
      })
    )
  )

  it.effect("a role whose change is under way (its fence up) keeps no copy", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { db, role, roleDocument, heldNow } = yield* aRole
        const fence = { id: "left-by-a-dead-process", at: new Date() }
        yield* Effect.promise(() =>
          db.collection<StoredRole>("roles").updateOne({ _id: role.id }, { $push: { fences: fence } })
        )
        assert.deepStrictEqual(yield* heldNow, Option.some([1]))
        assert.isUndefined((yield* roleDocument())?.permissionCopy, "read from the record, and not kept")
      })
    )
  )
})
