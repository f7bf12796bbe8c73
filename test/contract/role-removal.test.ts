import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Result } from "effect"
import {
  addMember,
  addRole,
  CurrentOrganization,
  grantPermission,
  MemberId,
  MemberStore,
  OrganizationId,
  permissionIdOf,
  RoleId,
  RoleInUse,
  RolePermissionStore,
  RoleStore,
  RoleView,
  removeRole,
  UnknownRole
} from "../../core/index.ts"
import { assertEquals, at, corePortsOn, memberRecord, newRole, valueOf, viewOf } from "../support/contract.ts"
import { master, memberInput } from "../support/roster.ts"
import { storeKinds } from "../support/stores.ts"

const other = OrganizationId.make("org-other")

describe.each(storeKinds)("RoleStore removal on %s", (_, stores) => {
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

  it.effect("a role is RoleInUse while a member holds it, and free once the last one left it", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const members = yield* MemberStore
      const role = yield* roles.insert(newRole("staff"))
      const other = yield* roles.insert(newRole("other"))
      yield* members.insert(memberRecord("ada", { roleId: role.id }))
      yield* members.insert(memberRecord("bob", { roleId: role.id }))
      const error = yield* Effect.flip(roles.remove(role.id))
      assert.instanceOf(error, RoleInUse)
      assert.strictEqual(error.roleId, role.id)
      assertEquals(valueOf(yield* roles.findById(role.id)), role, "the held role is still there")
      yield* members.remove(MemberId.make("member-ada"))
      assert.instanceOf(yield* Effect.flip(roles.remove(role.id)), RoleInUse, "Bob still holds it")
      valueOf(yield* members.update(MemberId.make("member-bob"), role.id, { roleId: other.id }, true))
      assert.instanceOf(yield* Effect.flip(roles.remove(other.id)), RoleInUse, "Bob moved into the other")
      assertEquals(valueOf(yield* roles.remove(role.id), "the role nobody holds, removed"), role)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("a member is written into no unknown role, nor into another organisation's", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const members = yield* MemberStore
      const theirs = yield* Effect.provideService(
        roles.insert(newRole("theirs")),
        CurrentOrganization,
        OrganizationId.make("org-other")
      )
      const role = yield* roles.insert(newRole("staff"))
      for (const roleId of [RoleId.make(99), theirs.id]) {
        const refused = yield* Effect.flip(members.insert(memberRecord("ada", { roleId })))
        assert.instanceOf(refused, UnknownRole)
        assert.strictEqual(refused.roleId, roleId)
      }
      assert.isTrue(Option.isNone(yield* members.findByLogin("ada")), "no account was written")
      yield* members.insert(memberRecord("bob", { roleId: role.id }))
      const bob = MemberId.make("member-bob")
      const moved = yield* Effect.flip(members.update(bob, role.id, { roleId: theirs.id }, true))
      assert.instanceOf(moved, UnknownRole)
      assert.strictEqual(valueOf(yield* members.findById(bob)).roleId, role.id, "Bob stayed in his role")
      const joined = Effect.flip(
        members.join(viewOf(memberRecord("bob", { roleId: RoleId.make(99), organizationId: other })))
      )
      assert.instanceOf(
        yield* Effect.provideService(joined, CurrentOrganization, other),
        UnknownRole,
        "nor is an account's membership written into a role its organisation lacks"
      )
      assert.lengthOf(yield* members.membershipsOf(bob), 1)
      assert.instanceOf(yield* Effect.flip(roles.remove(role.id)), RoleInUse, "Bob holds his role still")
    }).pipe(Effect.provide(stores()))
  )
})

describe.each(storeKinds)("removing roles through the use case on %s", (_kind, stores) => {
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
      assertEquals(
        yield* removeRole(master, role.id),
        new RoleView({
          ...role,
          permissionIds: record.permissionIds,
          recordId: record.id
        }),
        "the removed role, with what it held"
      )
      const permissions = yield* RolePermissionStore
      assert.isTrue(Option.isNone(yield* permissions.findById(record.id)), "its record is gone")
      assert.isTrue(Option.isNone(yield* permissions.findByRole(role.id)))
    }).pipe(Effect.provide(corePortsOn(stores())))
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
    }).pipe(Effect.provide(corePortsOn(stores())))
  )
})
