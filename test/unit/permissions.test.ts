import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import {
  addRole,
  authenticate,
  getRolePermissionDetail,
  grantPermission,
  listPermissions,
  Permission,
  PermissionCatalog,
  PermissionKey,
  permissionIdOf,
  RoleId,
  RolePermissionDetail,
  RolePermissionStore,
  UnknownPermission,
  UnknownRole
} from "../../core/index.ts"
import { assertForbidden, assertMissingPermission } from "../support/assertions.ts"
import { detailOfRole, idsOf, outsideCatalog, publishedPermissions } from "../support/role-permissions.ts"
import { actorWith, master, provideRoster, roleWith, signedInMember } from "../support/roster.ts"

describe("listPermissions", () => {
  it.effect("lists the fixed catalog with unique integer ids and keys", () =>
    Effect.gen(function* () {
      const catalog = yield* listPermissions(master)
      assert.deepStrictEqual(
        catalog.map(({ id, key, description, kind }) => ({ id, key, description, kind })),
        PermissionCatalog.map(({ id, key, description }) => ({
          id,
          key,
          description,
          kind: "roster" as const
        }))
      )
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
        assert.strictEqual(permissionIdOf(permission.key as PermissionKey), permission.id)
      }
    }).pipe(provideRoster())
  )

  it("keeps the published ids of the keys: they are part of the contract", () => {
    assert.deepStrictEqual<unknown>(
      PermissionCatalog.map((permission) => [permission.id, permission.key]),
      publishedPermissions
    )
    for (const permission of PermissionCatalog)
      assert.strictEqual(permissionIdOf(permission.key as PermissionKey), permission.id)
    // What clients receive: every field of each permission.
    const [first] = Schema.encodeSync(Schema.Array(Permission))(PermissionCatalog)
    assert.deepStrictEqual(first, {
      id: 1,
      key: "team.read",
      description: "Read members, roles and role permissions"
    })
  })

  it.effect("requires team.read", () =>
    Effect.gen(function* () {
      const writer = yield* actorWith("writer", ["team.permissions.write"])
      const error = yield* Effect.flip(listPermissions(writer.principal))
      assertMissingPermission(error, "team.read")

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

  it.effect("granting a permission the role holds writes nothing: the store is not asked to grant", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("held", ["team.read"])
      const store = yield* RolePermissionStore
      let grants = 0
      const counting = {
        ...store,
        grant: (...args: Parameters<typeof store.grant>) => {
          grants++
          return store.grant(...args)
        }
      }
      const grant = (key: "team.read" | "billing.read") =>
        grantPermission(master, { roleId: role.id, permissionId: permissionIdOf(key) }).pipe(
          Effect.provideService(RolePermissionStore, counting)
        )
      assert.deepStrictEqual((yield* grant("team.read")).permissionIds, idsOf("team.read"))
      assert.strictEqual(grants, 0)
      yield* grant("billing.read")
      assert.strictEqual(grants, 1, "one that it does not hold is granted")
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
      assert.strictEqual(error.permission, 999)
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
      assertForbidden(error, "grant_exceeds_own")
      assert.deepStrictEqual(error.permissionIds, idsOf("billing.subscribe"))
      assert.deepStrictEqual((yield* detailOfRole(target.id)).permissionIds, idsOf("team.read"))

      // Not even to their own role.
      const own = yield* Effect.flip(
        grantPermission(principal, {
          roleId: RoleId.make(1),
          permissionId: permissionIdOf("admin.accounts.write")
        })
      )
      assertForbidden(own, "grant_exceeds_own")
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
      assertMissingPermission(error, "team.permissions.write")
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
