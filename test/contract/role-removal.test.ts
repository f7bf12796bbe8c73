import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import {
  addMember,
  addRole,
  grantPermission,
  MemberStore,
  permissionIdOf,
  RoleId,
  RoleInUse,
  RolePermissionStore,
  RoleStore,
  removeRole
} from "../../core/index.ts"
import { assertEquals, at, newRole, rosterOn, valueOf } from "../support/contract.ts"
import { master, memberInput } from "../support/roster.ts"
import { storeKinds } from "../support/stores.ts"

describe.each(storeKinds)("RoleStore removal on %s", (kind, stores) => {
  it.effect("removes a role nobody holds and answers it; an unknown role is none", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const role = yield* roles.insert(newRole("staff", at(3)))
      assertEquals(valueOf(yield* roles.remove(role.id), "the removed role"), role)
      assert.isTrue(Option.isNone(yield* roles.findById(role.id)))
      assert.isTrue(Option.isNone(yield* roles.remove(role.id)), "removed once only")
      assert.isTrue(Option.isNone(yield* roles.remove(RoleId.make(99))))
      const next = yield* roles.insert(newRole("staff"))
      assert.isAbove(next.id, role.id, "a removed role's id is never given again")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("a claimed role is RoleInUse until every claim is released", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const role = yield* roles.insert(newRole("staff"))
      assert.isTrue(yield* roles.claim(role.id))
      assert.isTrue(yield* roles.claim(role.id))
      yield* roles.release(role.id)
      const error = yield* Effect.flip(roles.remove(role.id))
      assert.instanceOf(error, RoleInUse)
      assert.strictEqual(error.roleId, role.id)
      assertEquals(valueOf(yield* roles.findById(role.id)), role, "the held role is still there")
      yield* roles.release(role.id)
      assert.isTrue(Option.isSome(yield* roles.remove(role.id)))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("claiming an unknown role is false; releasing never counts below zero", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      assert.isFalse(yield* roles.claim(RoleId.make(42)))
      const role = yield* roles.insert(newRole("staff"))
      yield* roles.release(role.id)
      yield* roles.release(role.id)
      assert.isTrue(yield* roles.claim(role.id))
      assert.instanceOf(yield* Effect.flip(roles.remove(role.id)), RoleInUse, "one claim still holds it")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("a claim holds a role that was never held before, however old the role", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const role = yield* roles.insert(newRole("staff"))
      yield* TestClock.adjust("1 hour")
      yield* roles.claim(role.id)
      assert.instanceOf(yield* Effect.flip(roles.remove(role.id)), RoleInUse)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("a claim abandoned for a minute by a dead process does not hold a role nobody holds", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const role = yield* roles.insert(newRole("staff"))
      yield* roles.claim(role.id)
      yield* TestClock.adjust("59 seconds")
      assert.instanceOf(yield* Effect.flip(roles.remove(role.id)), RoleInUse, "a recent claim holds it")
      yield* TestClock.adjust("2 seconds")
      // In memory a claim cannot outlive its process, so it is never taken for abandoned.
      if (kind === "memory") assert.instanceOf(yield* Effect.flip(roles.remove(role.id)), RoleInUse)
      else assertEquals(valueOf(yield* roles.remove(role.id), "the corrected role, removed"), role)
    }).pipe(Effect.provide(stores()))
  )
})

describe.each(storeKinds)("removing roles through the use case on %s", (_, stores) => {
  it.effect("a role's permission record goes with it; a held role is role_in_use", () =>
    Effect.gen(function* () {
      const role = yield* addRole(master, { name: "Staff", roleKey: "staff" })
      const record = yield* grantPermission(master, {
        roleId: role.id,
        permissionId: permissionIdOf("team.read")
      })
      const held = yield* addRole(master, { name: "Held", roleKey: "held" })
      yield* addMember(master, memberInput("ada", held.id))

      assert.instanceOf(yield* Effect.flip(removeRole(master, held.id)), RoleInUse)
      assertEquals(yield* removeRole(master, role.id), role)
      const permissions = yield* RolePermissionStore
      assert.isTrue(Option.isNone(yield* permissions.findById(record.id)), "its record is gone")
      assert.isTrue(Option.isNone(yield* permissions.findByRole(role.id)))
    }).pipe(Effect.provide(rosterOn(stores())))
  )

  it.effect("racing member adds against the role's deletion never leave a member on a deleted role", () =>
    Effect.gen(function* () {
      for (let round = 0; round < 4; round++) {
        const role = yield* addRole(master, { name: "Temp", roleKey: `temp-${round}` })
        const adds = Array.from({ length: 5 }, (_, i) =>
          Effect.result(addMember(master, memberInput(`user${round}x${i}`, role.id)))
        )
        const { removal, added } = yield* Effect.all(
          {
            added: Effect.all(adds, { concurrency: "unbounded" }),
            removal: Effect.result(removeRole(master, role.id))
          },
          { concurrency: "unbounded" }
        )
        const removed = Result.isSuccess(removal)
        const holders = (yield* (yield* MemberStore).page({}, 1000)).filter(
          (member) => member.roleId === role.id
        )
        const roleLeft = Option.isSome(yield* (yield* RoleStore).findById(role.id))
        assert.strictEqual(roleLeft, !removed, `round ${round}: the role is gone exactly when removed`)
        if (removed) assert.lengthOf(holders, 0, `round ${round}: nobody holds the deleted role`)
        const addedCount = added.filter(Result.isSuccess).length
        assert.strictEqual(holders.length, addedCount, `round ${round}: every added member holds the role`)
      }
    }).pipe(Effect.provide(rosterOn(stores())))
  )
})
