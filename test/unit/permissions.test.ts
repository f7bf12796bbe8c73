import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  addRole,
  authenticate,
  Forbidden,
  getRolePermissionDetail,
  grantPermission,
  listPermissions,
  NotFound,
  PermissionCatalog,
  PermissionId,
  PermissionKey,
  permissionIdOf,
  RoleId,
  RolePermissionDetail,
  RolePermissionDetailId,
  RolePermissionStore,
  removePermission,
  UnknownPermission,
  UnknownRole
} from "../../core/index.ts"
import { master, provideRoster, roleWith, signedInMember } from "../support/roster.ts"

const actorWith = Effect.fnUntraced(function* (username: string, permissions: ReadonlyArray<PermissionKey>) {
  const signedIn = yield* signedInMember(username, permissions)
  const principal = yield* authenticate(Option.some(signedIn.token))
  return { ...signedIn, principal }
})

const idsOf = (...keys: ReadonlyArray<PermissionKey>) => keys.map(permissionIdOf)

const detailOfRole = Effect.fnUntraced(function* (roleId: RoleId) {
  const detail = yield* (yield* RolePermissionStore).findByRole(roleId)
  if (Option.isNone(detail)) return assert.fail(`role ${roleId} has no permission record`)
  return detail.value
})

const outsideCatalog = PermissionId.make(999)

describe("listPermissions", () => {
  it.effect("lists the fixed catalog with unique integer ids and keys", () =>
    Effect.gen(function* () {
      const catalog = yield* listPermissions(master)
      assert.deepStrictEqual(catalog, PermissionCatalog)
      const ids = catalog.map((permission) => permission.id)
      for (const id of ids) assert.isTrue(Number.isInteger(id) && id >= 1, `${id} is a positive integer`)
      assert.strictEqual(new Set(ids).size, ids.length)
      const keys = catalog.map((permission) => permission.key)
      assert.strictEqual(new Set(keys).size, keys.length)
      assert.sameMembers(keys, [...PermissionKey.literals])
      for (const key of [
        "team.read",
        "team.members.write",
        "team.roles.write",
        "team.permissions.write",
        "billing.subscribe",
        "admin.accounts.write"
      ]) {
        assert.include(keys, key)
      }
      for (const permission of catalog) {
        assert.isAbove(permission.description.length, 0)
        assert.strictEqual(permissionIdOf(permission.key), permission.id)
      }
    }).pipe(provideRoster())
  )

  it.effect("requires team.read", () =>
    Effect.gen(function* () {
      const writer = yield* actorWith("writer", ["team.permissions.write"])
      const error = yield* Effect.flip(listPermissions(writer.principal))
      assert.instanceOf(error, Forbidden)
      assert.strictEqual(error.reason, "missing_permission")
      assert.strictEqual(error.permission, "team.read")

      const reader = yield* actorWith("reader", ["team.read"])
      assert.lengthOf(yield* listPermissions(reader.principal), PermissionCatalog.length)
    }).pipe(provideRoster())
  )
})

describe("grantPermission", () => {
  it.effect("creates the role's record once and adds to it afterwards", () =>
    Effect.gen(function* () {
      const role = yield* addRole(master, { name: "Staff", roleKey: "staff" })
      const first = yield* grantPermission(master, {
        roleId: role.id,
        permissionId: permissionIdOf("team.read")
      })
      assert.instanceOf(first, RolePermissionDetail)
      assert.strictEqual(first.roleId, role.id)
      assert.deepStrictEqual(first.permissionIds, idsOf("team.read"))

      const second = yield* grantPermission(master, {
        roleId: role.id,
        permissionId: permissionIdOf("billing.read")
      })
      assert.strictEqual(second.id, first.id)
      assert.strictEqual(second.roleId, role.id)
      assert.deepStrictEqual(second.permissionIds, idsOf("team.read", "billing.read"))

      // Granting a permission already held changes nothing and does not duplicate it.
      const again = yield* grantPermission(master, {
        roleId: role.id,
        permissionId: permissionIdOf("team.read")
      })
      assert.strictEqual(again.id, first.id)
      assert.deepStrictEqual(again.permissionIds, idsOf("team.read", "billing.read"))

      assert.deepStrictEqual(yield* getRolePermissionDetail(master, first.id), again)
    }).pipe(provideRoster())
  )

  it.effect("gives each role its own record", () =>
    Effect.gen(function* () {
      const a = yield* roleWith("a", ["team.read"])
      const b = yield* roleWith("b", ["billing.read"])
      const detailA = yield* detailOfRole(a.id)
      const detailB = yield* detailOfRole(b.id)
      assert.notStrictEqual(detailA.id, detailB.id)
      assert.deepStrictEqual(detailA.permissionIds, idsOf("team.read"))
      assert.deepStrictEqual(detailB.permissionIds, idsOf("billing.read"))
    }).pipe(provideRoster())
  )

  it.effect("concurrent grants to one role all land in a single record", () =>
    Effect.gen(function* () {
      const role = yield* addRole(master, { name: "Staff", roleKey: "staff" })
      const details = yield* Effect.all(
        PermissionCatalog.map((permission) =>
          grantPermission(master, { roleId: role.id, permissionId: permission.id })
        ),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(new Set(details.map((detail) => detail.id)).size, 1)
      const detail = yield* detailOfRole(role.id)
      assert.deepStrictEqual(
        detail.permissionIds,
        PermissionCatalog.map((permission) => permission.id)
      )
    }).pipe(provideRoster())
  )

  it.effect("rejects a permission outside the catalog", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", ["team.read"])
      const error = yield* Effect.flip(
        grantPermission(master, { roleId: role.id, permissionId: outsideCatalog })
      )
      assert.instanceOf(error, UnknownPermission)
      assert.strictEqual(error.permissionId, 999)
      assert.deepStrictEqual((yield* detailOfRole(role.id)).permissionIds, idsOf("team.read"))
    }).pipe(provideRoster())
  )

  it.effect("rejects an unknown role", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        grantPermission(master, { roleId: RoleId.make(42), permissionId: permissionIdOf("team.read") })
      )
      assert.instanceOf(error, UnknownRole)
      assert.strictEqual(error.roleId, 42)
      const record = yield* (yield* RolePermissionStore).findByRole(RoleId.make(42))
      assert.isTrue(Option.isNone(record), "no record is created for an unknown role")
    }).pipe(provideRoster())
  )

  it.effect("forbids a member from granting a permission they do not hold", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("granter", ["team.permissions.write", "team.read"])
      const target = yield* roleWith("target", ["team.read"])
      const error = yield* Effect.flip(
        grantPermission(principal, { roleId: target.id, permissionId: permissionIdOf("billing.subscribe") })
      )
      assert.instanceOf(error, Forbidden)
      assert.strictEqual(error.reason, "grant_exceeds_own")
      assert.deepStrictEqual(error.permissionIds, idsOf("billing.subscribe"))
      assert.deepStrictEqual((yield* detailOfRole(target.id)).permissionIds, idsOf("team.read"))

      // Not even to their own role.
      const own = yield* Effect.flip(
        grantPermission(principal, {
          roleId: RoleId.make(1),
          permissionId: permissionIdOf("admin.accounts.write")
        })
      )
      assert.instanceOf(own, Forbidden)
      assert.strictEqual(own.reason, "grant_exceeds_own")
    }).pipe(provideRoster())
  )

  it.effect("lets a member grant a permission they hold", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("granter", ["team.permissions.write", "team.read"])
      const target = yield* addRole(master, { name: "Target", roleKey: "target" })
      const detail = yield* grantPermission(principal, {
        roleId: target.id,
        permissionId: permissionIdOf("team.read")
      })
      assert.deepStrictEqual(detail.permissionIds, idsOf("team.read"))
      const more = yield* grantPermission(principal, {
        roleId: target.id,
        permissionId: permissionIdOf("team.permissions.write")
      })
      assert.deepStrictEqual(more.permissionIds, idsOf("team.read", "team.permissions.write"))
    }).pipe(provideRoster())
  )

  it.effect("requires team.permissions.write", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("reader", ["team.read"])
      const target = yield* addRole(master, { name: "Target", roleKey: "target" })
      const error = yield* Effect.flip(
        grantPermission(principal, { roleId: target.id, permissionId: permissionIdOf("team.read") })
      )
      assert.instanceOf(error, Forbidden)
      assert.strictEqual(error.reason, "missing_permission")
      assert.strictEqual(error.permission, "team.permissions.write")
      assert.isTrue(Option.isNone(yield* (yield* RolePermissionStore).findByRole(target.id)))
    }).pipe(provideRoster())
  )

  it.effect("a grant takes effect on the members of the role at their next request", () =>
    Effect.gen(function* () {
      const { role, token } = yield* signedInMember("alice", ["team.read"])
      yield* grantPermission(master, { roleId: role.id, permissionId: permissionIdOf("billing.read") })
      const principal = yield* authenticate(Option.some(token))
      assert.strictEqual(principal._tag, "Member")
      if (principal._tag === "Member") {
        assert.deepStrictEqual(principal.permissionIds, idsOf("team.read", "billing.read"))
      }
    }).pipe(provideRoster())
  )
})

describe("removePermission", () => {
  it.effect("removes the permission, and removing it again changes nothing", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", ["team.read", "billing.read"])
      const before = yield* detailOfRole(role.id)

      const removed = yield* removePermission(master, {
        id: before.id,
        permissionId: permissionIdOf("billing.read")
      })
      assert.strictEqual(removed.id, before.id)
      assert.strictEqual(removed.roleId, role.id)
      assert.deepStrictEqual(removed.permissionIds, idsOf("team.read"))
      assert.deepStrictEqual(
        (yield* getRolePermissionDetail(master, before.id)).permissionIds,
        idsOf("team.read")
      )

      const again = yield* removePermission(master, {
        id: before.id,
        permissionId: permissionIdOf("billing.read")
      })
      assert.deepStrictEqual(again, removed)

      // A catalog permission the role never held is also a no-op.
      const never = yield* removePermission(master, {
        id: before.id,
        permissionId: permissionIdOf("admin.accounts.write")
      })
      assert.deepStrictEqual(never, removed)
    }).pipe(provideRoster())
  )

  it.effect("the removed permission no longer reaches the role's members", () =>
    Effect.gen(function* () {
      const { role, token } = yield* signedInMember("alice", ["team.read", "billing.read"])
      const detail = yield* detailOfRole(role.id)
      yield* removePermission(master, { id: detail.id, permissionId: permissionIdOf("team.read") })
      const principal = yield* authenticate(Option.some(token))
      assert.strictEqual(principal._tag, "Member")
      if (principal._tag === "Member") assert.deepStrictEqual(principal.permissionIds, idsOf("billing.read"))
    }).pipe(provideRoster())
  )

  it.effect("an unknown record is NotFound", () =>
    Effect.gen(function* () {
      yield* roleWith("staff", ["team.read"])
      const error = yield* Effect.flip(
        removePermission(master, {
          id: RolePermissionDetailId.make(77),
          permissionId: permissionIdOf("team.read")
        })
      )
      assert.instanceOf(error, NotFound)
      assert.strictEqual(error.entity, "role_permission_detail")
      assert.strictEqual(error.id, "77")
    }).pipe(provideRoster())
  )

  it.effect("a permission outside the catalog is UnknownPermission, not NotFound", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", ["team.read"])
      const detail = yield* detailOfRole(role.id)
      const error = yield* Effect.flip(
        removePermission(master, { id: detail.id, permissionId: outsideCatalog })
      )
      assert.instanceOf(error, UnknownPermission)
      assert.notInstanceOf(error, NotFound)
      assert.strictEqual(error.permissionId, 999)
      assert.deepStrictEqual((yield* detailOfRole(role.id)).permissionIds, idsOf("team.read"))
    }).pipe(provideRoster())
  )

  it.effect("requires team.permissions.write", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("reader", ["team.read", "team.roles.write"])
      const role = yield* roleWith("staff", ["team.read"])
      const detail = yield* detailOfRole(role.id)
      const error = yield* Effect.flip(
        removePermission(principal, { id: detail.id, permissionId: permissionIdOf("team.read") })
      )
      assert.instanceOf(error, Forbidden)
      assert.strictEqual(error.reason, "missing_permission")
      assert.strictEqual(error.permission, "team.permissions.write")
      assert.deepStrictEqual((yield* detailOfRole(role.id)).permissionIds, idsOf("team.read"))

      const writer = yield* actorWith("writer", ["team.permissions.write"])
      const removed = yield* removePermission(writer.principal, {
        id: detail.id,
        permissionId: permissionIdOf("team.read")
      })
      assert.deepStrictEqual(removed.permissionIds, [])
    }).pipe(provideRoster())
  )

  it.effect("concurrent removals of different permissions from one record all take effect", () =>
    Effect.gen(function* () {
      const every = PermissionCatalog.map((permission) => permission.key)
      const role = yield* roleWith("everything", every)
      const detail = yield* detailOfRole(role.id)
      assert.lengthOf(detail.permissionIds, every.length)

      const keep = permissionIdOf("team.read")
      const toRemove = detail.permissionIds.filter((id) => id !== keep)
      yield* Effect.all(
        toRemove.map((permissionId) => removePermission(master, { id: detail.id, permissionId })),
        { concurrency: "unbounded" }
      )
      const after = yield* getRolePermissionDetail(master, detail.id)
      assert.strictEqual(after.id, detail.id)
      assert.deepStrictEqual(after.permissionIds, [keep])
    }).pipe(provideRoster())
  )
})

describe("getRolePermissionDetail", () => {
  it.effect("returns the record and requires team.read", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", ["team.read", "billing.subscribe"])
      const detail = yield* detailOfRole(role.id)

      const fetched = yield* getRolePermissionDetail(master, detail.id)
      assert.deepStrictEqual(fetched, detail)
      assert.strictEqual(fetched.roleId, role.id)
      assert.deepStrictEqual(fetched.permissionIds, idsOf("team.read", "billing.subscribe"))

      const writer = yield* actorWith("writer", ["team.permissions.write"])
      const error = yield* Effect.flip(getRolePermissionDetail(writer.principal, detail.id))
      assert.instanceOf(error, Forbidden)
      assert.strictEqual(error.reason, "missing_permission")
      assert.strictEqual(error.permission, "team.read")

      const reader = yield* actorWith("reader", ["team.read"])
      assert.deepStrictEqual(yield* getRolePermissionDetail(reader.principal, detail.id), detail)
    }).pipe(provideRoster())
  )

  it.effect("an unknown record is NotFound", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(getRolePermissionDetail(master, RolePermissionDetailId.make(5)))
      assert.instanceOf(error, NotFound)
      assert.strictEqual(error.entity, "role_permission_detail")
      assert.strictEqual(error.id, "5")
    }).pipe(provideRoster())
  )
})
