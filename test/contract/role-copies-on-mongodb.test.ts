import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber, Layer, Option, Redacted } from "effect"
import { MongoDatabase, mongoDatabaseLayer } from "../../adapters/mongodb/database.ts"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { recordFence } from "../../adapters/mongodb/record-fences.ts"
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
  const roles = db.collection<StoredRole>("roles")
  const roleDocument = () => Effect.promise(() => roles.findOne({ _id: role.id }))
  const dropCopy = Effect.promise(() => roles.updateOne({ _id: role.id }, { $unset: { permissionCopy: "" } }))
  const heldNow = Effect.flatMap(RoleLookup, (lookup) => lookup.find(role.id)).pipe(
    Effect.map(Option.map((found) => found.permissionIds.map(Number))),
    Effect.provide(stores)
  )
  return { db, role, grant, roleDocument, dropCopy, heldNow }
})

/** Where a change waits: `pass` inside it says it got there and waits until the test says `open`. */
const gate = Effect.gen(function* () {
  const got = yield* Deferred.make<void>()
  const opened = yield* Deferred.make<void>()
  return {
    pass: Effect.andThen(Deferred.succeed(got, undefined), Deferred.await(opened)),
    reached: Deferred.await(got),
    open: Deferred.succeed(opened, undefined)
  }
})

/** `aRole`, with writes of its record run behind the fence grants and revocations use. */
const changesOfTheRecord = Effect.gen(function* () {
  const found = yield* aRole
  const record = found.db.collection<{ roleId: number; permissionIds: Array<number> }>("role_permissions")
  const add = (permission: number) =>
    Effect.promise(() =>
      record.findOneAndUpdate(
        { roleId: found.role.id },
        { $addToSet: { permissionIds: permission } },
        { returnDocument: "after" }
      )
    )
  return {
    ...found,
    fenced: recordFence(found.db)("default", found.role.id),
    add,
    idsAfter: (written: { permissionIds: Array<number> } | null) => written?.permissionIds
  }
})

describe("copies of a role's permissions on MongoDB", () => {
  it.effect(
    "a change of a role's permissions leaves it a copy of them; a role read without one keeps one",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { grant, roleDocument, dropCopy, heldNow } = yield* aRole
          assert.deepStrictEqual((yield* roleDocument())?.permissionCopy, [1], "the first grant's")
          yield* grant(2)
          const granted = yield* roleDocument()
          assert.deepStrictEqual(granted?.permissionCopy, [1, 2], "the next grant's")
          assert.deepStrictEqual(granted?.fences, [], "and the fence taken down once it was done")
          yield* dropCopy
          assert.deepStrictEqual(yield* heldNow, Option.some([1, 2]))
          assert.deepStrictEqual((yield* roleDocument())?.permissionCopy, [1, 2], "kept after a full read")
        })
      )
  )

  it.effect("a read that overlaps a change of the permissions does not keep what it read before it", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { db, role, grant, roleDocument, dropCopy, heldNow } = yield* aRole
        yield* dropCopy
        // A lookup whose read of the record is overtaken by a grant before it keeps a copy.
        const racingDb = withReadsOvertaken(db, "role_permissions", Effect.scoped(grant(2)))
        const racing = yield* makeRoleLookup.pipe(Effect.provideService(MongoDatabase, racingDb))
        const read = yield* racing.find(role.id)
        assert.deepStrictEqual(
          Option.map(read, (found) => found.permissionIds.map(Number)),
          Option.some([1]),
          "it answers what it read"
        )
        assert.deepStrictEqual(
          (yield* roleDocument())?.permissionCopy,
          [1, 2],
          "but keeps the grant's copy, not its own"
        )
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
          db
            .collection<StoredRole>("roles")
            .updateOne({ _id: role.id }, { $push: { fences: fence }, $unset: { permissionCopy: "" } })
        )
        assert.deepStrictEqual(yield* heldNow, Option.some([1]))
        assert.isUndefined((yield* roleDocument())?.permissionCopy, "read from the record, and not kept")
      })
    )
  )

  it.effect("a change that ends while an earlier one is under way leaves no copy, nor does the earlier", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { fenced, add, idsAfter, roleDocument, heldNow } = yield* changesOfTheRecord
        const first = yield* gate
        const begunFirst = yield* Effect.forkChild(fenced(Effect.andThen(first.pass, add(3)), idsAfter))
        yield* first.reached
        yield* fenced(add(2), idsAfter)
        assert.isUndefined((yield* roleDocument())?.permissionCopy, "none while the first is under way")
        yield* first.open
        yield* Fiber.join(begunFirst)
        assert.isUndefined((yield* roleDocument())?.permissionCopy, "nor after it: it began before the other")
        assert.deepStrictEqual(yield* heldNow, Option.some([1, 2, 3]))
      })
    )
  )

  it.effect("a change that ends last keeps no copy older than another's write that ended before it", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { fenced, add, idsAfter, roleDocument, heldNow } = yield* changesOfTheRecord
        const first = yield* gate
        const second = yield* gate
        const writesLast = yield* Effect.forkChild(fenced(Effect.andThen(first.pass, add(3)), idsAfter))
        yield* first.reached
        const endsLast = yield* Effect.forkChild(
          fenced(
            Effect.tap(add(2), () => second.pass),
            idsAfter
          )
        )
        yield* second.reached
        yield* first.open
        yield* Fiber.join(writesLast)
        yield* second.open
        yield* Fiber.join(endsLast)
        const after = yield* roleDocument()
        assert.deepStrictEqual(after?.fences, [])
        assert.isUndefined(after?.permissionCopy, "what the last to end wrote, [1, 2], is not kept")
        assert.deepStrictEqual(yield* heldNow, Option.some([1, 2, 3]))
      })
    )
  )
})
