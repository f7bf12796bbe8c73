import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { PermissionCatalog, type RoleId, RoleLookup } from "../../core/index.ts"
import { scratch, storesOn, withClient } from "../support/mongo-scratch.ts"

const stored = (_id: number, permissionIds: Array<number>) => ({
  _id,
  organizationId: "default",
  name: `role ${_id}`,
  roleKey: `role-${_id}`,
  activeStatus: true,
  createdAt: new Date(0),
  record: { id: _id, permissionIds, updatedAt: new Date(0) }
})

const heldBy = (roleId: number) =>
  Effect.map(
    RoleLookup.use((roles) => roles.find(roleId as RoleId)),
    (found) => (found._tag === "Some" ? [...found.value.permissionIds] : [])
  )

/** The whole catalog as it is now: what a role that held all of it holds after the start. */
const wholeCatalog = PermissionCatalog.map((permission) => Number(permission.id))

describe("roles stored before the catalog grew, on MongoDB", () => {
  it.effect("those that held all of it are given what was appended, once: a later removal stays", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        yield* withClient((client) =>
          client
            .db(database)
            .collection("roles")
            .insertMany([stored(1, [1, 2, 3, 4, 5, 6, 7, 8, 9]), stored(2, [1, 9])] as never)
        )
        const first = yield* Effect.all([heldBy(1), heldBy(2)]).pipe(Effect.provide(storesOn(database)))
        assert.deepStrictEqual(first, [wholeCatalog, [1, 9]])
        yield* withClient((client) =>
          client
            .db(database)
            .collection<{ _id: number }>("roles")
            .updateOne({ _id: 1 }, { $pull: { "record.permissionIds": 10 } } as never)
        )
        const again = yield* heldBy(1).pipe(Effect.provide(storesOn(database)))
        assert.deepStrictEqual(
          again,
          wholeCatalog.filter((id) => id !== 10),
          "not given again at the next start"
        )
      })
    )
  )
})
