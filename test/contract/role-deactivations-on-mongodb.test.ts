import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { RoleStore } from "../../core/index.ts"
import { scratch, storesOn, withClient } from "../support/mongo-scratch.ts"

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
        yield* withClient((client) =>
          client
            .db(database)
            .collection("roles")
            .insertMany([stored("off", false, 1), stored("on", true, 2)] as never)
        )
        const before = Date.now()
        const roles = yield* Effect.flatMap(RoleStore, (store) => store.page(undefined, 10)).pipe(
          Effect.provide(storesOn(database))
        )
        const [off, on] = roles
        assert.isDefined(off?.deactivatedAt)
        assert.isAtLeast(off?.deactivatedAt?.epochMilliseconds ?? 0, before - 1000)
        assert.isUndefined(on?.deactivatedAt)
      })
    )
  )
})
