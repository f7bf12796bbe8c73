import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { StoredRole } from "../../adapters/mongodb/consistency/index.ts"
import { MongoDatabase, mongoDatabaseLayer } from "../../adapters/mongodb/database.ts"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { makeRolePermissionStore } from "../../adapters/mongodb/role-permission-store.ts"
import { PermissionId, RoleId, RolePermissionStore, RoleStore } from "../../core/index.ts"
import { at, newRole, valueOf } from "../support/contract.ts"
import { scratch, storesOn, withClient } from "../support/mongo-scratch.ts"
import { once, withWritesOvertaken } from "../support/overtaken-reads.ts"
import { mongoUri, scratchDatabase } from "../support/stores.ts"

/** The stores on a scratch database, a connection of the test's own to it, and a role. */
const aRole = Effect.gen(function* () {
  const database = yield* scratchDatabase
  const options = { uri: Redacted.make(mongoUri()), database }
  const stores = yield* Layer.build(Layer.orDie(mongoStores(options)))
  const db = Context.get(yield* Layer.build(Layer.orDie(mongoDatabaseLayer(options))), MongoDatabase)
  const role = yield* Context.get(stores, RoleStore).insert(newRole("staff"))
  const roleDocument = () =>
    Effect.promise(() => db.collection<StoredRole>("roles").findOne({ _id: role.id }))
  return { db, details: Context.get(stores, RolePermissionStore), role, roleDocument }
})

describe("permission records carried by their roles on MongoDB", () => {
  it.effect("a change of the record takes its fence down in the same write", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { details, role, roleDocument } = yield* aRole
        const granted = valueOf(yield* details.grant(role.id, PermissionId.make(4), at(1)))
        yield* details.grant(role.id, PermissionId.make(2), at(2))
        yield* details.revoke(granted, PermissionId.make(4), at(3))
        const stored = yield* roleDocument()
        assert.deepStrictEqual(stored?.record?.id, granted.id)
        assert.deepStrictEqual(stored?.record?.permissionIds, [2])
        assert.deepStrictEqual(stored?.fences, [])
      })
    )
  )

  it.effect("grants overtaken by another grant both take effect, the record made once", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { db, details, role, roleDocument } = yield* aRole
        // The first grant's fence is up; another grant makes the record and ends before it writes.
        const grantAnother = once(details.grant(role.id, PermissionId.make(3), at(1)))
        const racing = yield* makeRolePermissionStore.pipe(
          Effect.provideService(MongoDatabase, withWritesOvertaken(db, "roles", grantAnother.change))
        )
        const granted = valueOf(yield* racing.grant(role.id, PermissionId.make(5), at(2)))
        assert.isTrue(grantAnother.ran())
        assert.deepStrictEqual(granted.permissionIds.map(Number), [3, 5])
        const stored = yield* roleDocument()
        assert.deepStrictEqual([...(stored?.record?.permissionIds ?? [])].sort(), [3, 5])
        assert.deepStrictEqual(stored?.record?.id, granted.id)
        assert.deepStrictEqual(stored?.fences, [])
      })
    )
  )

  it.effect("records kept apart before are moved into their roles at start, copies taken away", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        const updatedAt = new Date(Date.UTC(2026, 0, 1))
        yield* withClient(async (client) => {
          const db = client.db(database)
          await db.collection<{ _id: number }>("roles").insertOne({
            _id: 1,
            organizationId: "default",
            name: "Staff",
            roleKey: "staff",
            activeStatus: true,
            createdAt: updatedAt,
            holders: 0,
            permissionCopy: [1, 2],
            copyVersion: 4
          } as never)
          await db.collection<{ _id: number }>("role_permissions").insertMany([
            { _id: 7, roleId: 1, organizationId: "default", permissionIds: [2, 1], updatedAt },
            { _id: 8, roleId: 99, organizationId: "default", permissionIds: [3], updatedAt }
          ] as never)
        })
        yield* Effect.gen(function* () {
          const details = yield* RolePermissionStore
          const moved = valueOf(yield* details.findByRole(RoleId.make(1)))
          assert.deepStrictEqual([moved.id, moved.permissionIds.map(Number)], [7, [1, 2]])
          assert.deepStrictEqual(valueOf(yield* details.findById(moved.id)), moved)
        }).pipe(Effect.provide(storesOn(database)))
        const left = yield* withClient(async (client) => {
          const db = client.db(database)
          return {
            role: await db.collection<StoredRole>("roles").findOne({ _id: 1 }),
            records: await db.collection("role_permissions").countDocuments()
          }
        })
        assert.strictEqual(left.records, 0, "the record of a role that is gone too")
        assert.isFalse(left.role !== null && ("permissionCopy" in left.role || "copyVersion" in left.role))
        assert.isTrue(Option.isSome(Option.fromNullishOr(left.role?.record)))
      })
    )
  )
})
