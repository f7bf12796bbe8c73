import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  DuplicateRoleKey,
  PermissionCatalog,
  PermissionId,
  Role,
  RoleId,
  RolePermissionDetailId,
  RolePermissionStore,
  RoleStore
} from "../../core/index.ts"
import { assertSingleWinner } from "../support/assertions.ts"
import { assertEquals, at, inParallel, newRole, valueOf } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const allPermissions = PermissionCatalog.map((permission) => permission.id)
const permission = PermissionId.make
const role = RoleId.make
/** Roles 1, 2 and 3 (ids are allocated in order from 1): records belong to roles. */
const threeRoles = RoleStore.use((roles) =>
  Effect.forEach([1, 2, 3], (i) => roles.insert(newRole(`role-${i}`)))
)
/** Branded ids as plain numbers, to compare with literals. */
const plain = (ids: ReadonlyArray<number>): Array<number> => [...ids]

describe.each(storeKinds)("RoleStore on %s", (_, stores) => {
  it.effect("allocates ids 1, 2, 3 and finds each role by id", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const created = [
        yield* roles.insert(newRole("admin", at(1))),
        yield* roles.insert(newRole("staff", at(2))),
        // A Role is a NewRole too: the id it carries is not the one the store allocates.
        yield* roles.insert(new Role({ ...newRole("guest", at(3)), id: role(0), activeStatus: false }))
      ]
      assert.deepStrictEqual(
        created.map((created) => created.id),
        [1, 2, 3]
      )
      assertEquals(created[2], new Role({ ...newRole("guest", at(3)), id: role(3), activeStatus: false }))
      for (const each of created) assertEquals(valueOf(yield* roles.findById(each.id)), each)
      assert.isTrue(Option.isNone(yield* roles.findById(role(4))))
      assert.isTrue(Option.isNone(yield* roles.findById(role(0))))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("a taken roleKey is DuplicateRoleKey; later roles still get new, larger ids", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const admin = yield* roles.insert(newRole("admin"))
      const error = yield* Effect.flip(roles.insert(newRole("admin", at(9))))
      assert.instanceOf(error, DuplicateRoleKey)
      assert.strictEqual(error.roleKey, "admin")
      assertEquals(yield* roles.page(undefined, 1000), [admin])
      const staff = yield* roles.insert(newRole("staff"))
      assert.isAbove(staff.id, admin.id)
    }).pipe(Effect.provide(stores()))
  )

  it.effect(
    "update sets only the given fields in one write, keeps roleKey unique, and names no missing role",
    () =>
      Effect.gen(function* () {
        const roles = yield* RoleStore
        const admin = yield* roles.insert(newRole("admin", at(1)))
        const staff = yield* roles.insert(newRole("staff", at(2)))
        const renamed = valueOf(yield* roles.update(admin.id, { name: "Admins", activeStatus: false }))
        assertEquals(renamed, new Role({ ...admin, name: "Admins", activeStatus: false }))
        assertEquals(valueOf(yield* roles.findById(admin.id)), renamed)
        assertEquals(valueOf(yield* roles.update(admin.id, {})), renamed)
        const error = yield* Effect.flip(roles.update(staff.id, { roleKey: "admin" }))
        assert.instanceOf(error, DuplicateRoleKey)
        assert.strictEqual(error.roleKey, "admin")
        assertEquals(valueOf(yield* roles.findById(staff.id)), staff)
        assertEquals(
          valueOf(yield* roles.update(staff.id, { roleKey: "crew" })),
          new Role({ ...staff, roleKey: "crew" })
        )
        assert.isTrue(Option.isNone(yield* roles.update(role(99), { name: "Ghost" })))
        assert.isTrue(Option.isNone(yield* roles.findById(role(99))))
      }).pipe(Effect.provide(stores()))
  )

  it.effect("10 roles re-keyed to one roleKey in parallel: one takes it, 9 DuplicateRoleKey", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const created = yield* inParallel(10, (i) => roles.insert(newRole(`role-${i}`)))
      const results = yield* inParallel(10, (i) =>
        Effect.result(roles.update((created[i] as Role).id, { roleKey: "contested" }))
      )
      const winner = assertSingleWinner(results, DuplicateRoleKey)
      assert.strictEqual(valueOf(winner).roleKey, "contested")
      const keys = (yield* roles.page(undefined, 1000)).map((each) => each.roleKey)
      assert.strictEqual(keys.filter((key) => key === "contested").length, 1)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("10 parallel inserts get 10 distinct ids, listed ascending", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const created = yield* inParallel(10, (i) => roles.insert(newRole(`role-${i}`)))
      const ids = created.map((created) => created.id)
      assert.strictEqual(new Set(ids).size, 10)
      for (const id of ids) assert.isTrue(Number.isInteger(id) && id >= 1, `${id} is a positive integer`)
      const listed = yield* roles.page(undefined, 1000)
      assert.deepStrictEqual(
        listed.map((listed) => listed.id),
        [...ids].sort((a, b) => a - b)
      )
      for (const each of created)
        assert.strictEqual(valueOf(yield* roles.findById(each.id)).roleKey, each.roleKey)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("10 parallel inserts of one roleKey: one role, 9 DuplicateRoleKey", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const results = yield* inParallel(10, (i) => Effect.result(roles.insert(newRole("contested", at(i)))))
      const winner = assertSingleWinner(results, DuplicateRoleKey)
      assertEquals(yield* roles.page(undefined, 1000), [winner])
    }).pipe(Effect.provide(stores()))
  )
})

describe.each(storeKinds)("RolePermissionStore on %s", (_, stores) => {
  it.effect("the first grant creates the role's record, later ones add to it", () =>
    Effect.gen(function* () {
      const details = yield* RolePermissionStore
      yield* threeRoles
      assert.isTrue(Option.isNone(yield* details.findByRole(role(1))))
      const first = valueOf(yield* details.grant(role(1), permission(5), at(1)))
      assert.strictEqual(first.roleId, 1)
      assert.deepStrictEqual(plain(first.permissionIds), [5])
      assertEquals(first.updatedAt, at(1))
      assertEquals(valueOf(yield* details.findByRole(role(1))), first)
      assertEquals(valueOf(yield* details.findById(first.id)), first)

      const second = valueOf(yield* details.grant(role(1), permission(2), at(2)))
      assert.strictEqual(second.id, first.id)
      assert.deepStrictEqual(plain(second.permissionIds), [2, 5], "sorted by id")
      assertEquals(second.updatedAt, at(2))
      // Granting a held permission does not list it twice.
      const again = valueOf(yield* details.grant(role(1), permission(5), at(3)))
      assert.deepStrictEqual(plain(again.permissionIds), [2, 5])
      assertEquals(valueOf(yield* details.findById(first.id)), again)

      const other = valueOf(yield* details.grant(role(2), permission(5), at(4)))
      assert.notStrictEqual(other.id, first.id)
      assert.deepStrictEqual(plain(valueOf(yield* details.findByRole(role(1))).permissionIds), [2, 5])
    }).pipe(Effect.provide(stores()))
  )

  it.effect("granting every permission in parallel yields one record holding them all", () =>
    Effect.gen(function* () {
      const details = yield* RolePermissionStore
      yield* threeRoles
      const granted = yield* inParallel(allPermissions.length, (i) =>
        details
          .grant(role(1), allPermissions[i] ?? permission(1), at(i))
          .pipe(Effect.map((granted) => valueOf(granted)))
      )
      const [first] = granted
      if (first === undefined) return assert.fail("no grant answered")
      for (const each of granted) assert.strictEqual(each.id, first.id, "every grant went to one record")
      const stored = valueOf(yield* details.findByRole(role(1)))
      assert.strictEqual(stored.id, first.id)
      assert.deepStrictEqual(plain(stored.permissionIds), plain(allPermissions))
      assertEquals(valueOf(yield* details.findById(first.id)), stored)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("revoking every permission in parallel leaves the record empty", () =>
    Effect.gen(function* () {
      const details = yield* RolePermissionStore
      yield* threeRoles
      for (const id of allPermissions) yield* details.grant(role(3), id, at(0))
      const record = valueOf(yield* details.findByRole(role(3)))
      const revoked = yield* inParallel(allPermissions.length, (i) =>
        details.revoke(record, allPermissions[i] ?? permission(1), at(10))
      )
      for (const each of revoked) assert.strictEqual(valueOf(each).id, record.id)
      const stored = valueOf(yield* details.findById(record.id))
      assert.deepStrictEqual(plain(stored.permissionIds), [])
      assert.strictEqual(stored.roleId, 3)
      assertEquals(stored.updatedAt, at(10))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("revoking removes one permission; revoking an absent one returns the record unchanged", () =>
    Effect.gen(function* () {
      const details = yield* RolePermissionStore
      yield* threeRoles
      valueOf(yield* details.grant(role(1), permission(1), at(1)))
      const before = valueOf(yield* details.grant(role(1), permission(4), at(2)))

      const removed = valueOf(yield* details.revoke(before, permission(1), at(3)))
      assert.deepStrictEqual(plain(removed.permissionIds), [4])
      assertEquals(removed.updatedAt, at(3))
      assertEquals(valueOf(yield* details.findById(before.id)), removed)

      for (const absent of [permission(1), permission(7), permission(999)]) {
        const unchanged = valueOf(yield* details.revoke(before, absent, at(4)))
        assertEquals(unchanged, removed, `revoking ${absent} changes nothing, not even updatedAt`)
      }
      assertEquals(valueOf(yield* details.findById(before.id)), removed)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("an unknown record is none to revoke and to find", () =>
    Effect.gen(function* () {
      const details = yield* RolePermissionStore
      yield* threeRoles
      const existing = valueOf(yield* details.grant(role(1), permission(1), at(1)))
      const unknown = RolePermissionDetailId.make(existing.id + 100)
      assert.isTrue(
        Option.isNone(yield* details.revoke({ id: unknown, roleId: role(1) }, permission(1), at(2)))
      )
      assert.isTrue(
        Option.isNone(yield* details.revoke({ id: existing.id, roleId: role(2) }, permission(1), at(2))),
        "nor is a record under another role than its own"
      )
      assertEquals(valueOf(yield* details.findById(existing.id)), existing, "which is left unchanged")
      assert.isTrue(Option.isNone(yield* details.findById(unknown)))
      assert.isTrue(Option.isNone(yield* details.findByRole(role(2))))
      assertEquals(valueOf(yield* details.findById(existing.id)), existing)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("a grant to a role there is not is none, and makes no record", () =>
    Effect.gen(function* () {
      const details = yield* RolePermissionStore
      assert.isTrue(Option.isNone(yield* details.grant(role(7), permission(1), at(1))))
      assert.isTrue(Option.isNone(yield* details.findByRole(role(7))))
      assert.deepStrictEqual(yield* details.rolesHolding([permission(1)]), [])
    }).pipe(Effect.provide(stores()))
  )
})
