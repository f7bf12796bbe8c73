import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import {
  authenticate,
  getRolePermissionDetail,
  NotFound,
  PermissionCatalog,
  permissionIdOf,
  RemovePermissionInput,
  RolePermissionDetailId,
  removePermission,
  UnknownPermission
} from "../../core/index.ts"
import { assertForbidden, assertMissingPermission, assertNotFound } from "../support/assertions.ts"
import { detailOfRole, idsOf, outsideCatalog, roleWithRecord } from "../support/role-permissions.ts"
import { actorWith, master, provideRoster, roleWith, signedInMember } from "../support/roster.ts"

describe("removePermission", () => {
  it.effect("forbids a member from removing a permission they do not hold, even from another role", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("remover", ["team.permissions.write", "team.read"])
      const { detail: admins } = yield* roleWithRecord("admins", ["team.read", "admin.accounts.write"])
      const error = yield* Effect.flip(
        removePermission(principal, { id: admins.id, permissionId: permissionIdOf("admin.accounts.write") })
      )
      assertForbidden(error, "revoke_exceeds_own")
      assert.deepStrictEqual(error.permissionIds, idsOf("admin.accounts.write"), "names what they lack")
      assert.deepStrictEqual((yield* detailOfRole(admins.roleId)).permissionIds, admins.permissionIds)
      // Nor one they hold: the role holds more than they do, so it is above their ceiling.
      const held = yield* Effect.flip(
        removePermission(principal, { id: admins.id, permissionId: permissionIdOf("team.read") })
      )
      assertForbidden(held, "role_exceeds_own")
      assert.deepStrictEqual((yield* detailOfRole(admins.roleId)).permissionIds, admins.permissionIds)
    }).pipe(provideRoster())
  )

  it.effect("removes the permission, and removing it again changes nothing", () =>
    Effect.gen(function* () {
      const { role, detail: before } = yield* roleWithRecord("staff", ["team.read", "billing.read"])

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
      assertNotFound(error, "role_permission_detail", "77")
    }).pipe(provideRoster())
  )

  it.effect("a permission outside the catalog is UnknownPermission, not NotFound", () =>
    Effect.gen(function* () {
      const { role, detail } = yield* roleWithRecord("staff", ["team.read"])
      const error = yield* Effect.flip(
        removePermission(master, { id: detail.id, permissionId: outsideCatalog })
      )
      assert.instanceOf(error, UnknownPermission)
      assert.notInstanceOf(error, NotFound)
      assert.strictEqual(error.permission, 999)
      assert.deepStrictEqual((yield* detailOfRole(role.id)).permissionIds, idsOf("team.read"))
    }).pipe(provideRoster())
  )

  it.effect.each([0, -3])(
    "a permissionId of %s is well formed but outside the catalog: UnknownPermission",
    (id) =>
      Effect.gen(function* () {
        const { detail } = yield* roleWithRecord("staff", ["team.read"])
        const input = yield* Schema.decodeUnknownEffect(RemovePermissionInput)({
          id: detail.id,
          permissionId: id
        })
        assert.instanceOf(yield* Effect.flip(removePermission(master, input)), UnknownPermission)
      }).pipe(provideRoster())
  )

  it.effect("requires team.permissions.write", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("reader", ["team.read", "team.roles.write"])
      const { role, detail } = yield* roleWithRecord("staff", ["team.read"])
      const error = yield* Effect.flip(
        removePermission(principal, { id: detail.id, permissionId: permissionIdOf("team.read") })
      )
      assertMissingPermission(error, "team.permissions.write")
      assert.deepStrictEqual((yield* detailOfRole(role.id)).permissionIds, idsOf("team.read"))

      const writer = yield* actorWith("writer", ["team.permissions.write", "team.read"])
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
      const { detail } = yield* roleWithRecord("everything", every)
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
      const { role, detail } = yield* roleWithRecord("staff", ["team.read", "billing.subscribe"])

      const fetched = yield* getRolePermissionDetail(master, detail.id)
      assert.deepStrictEqual(fetched, detail)
      assert.strictEqual(fetched.roleId, role.id)
      assert.deepStrictEqual(fetched.permissionIds, idsOf("team.read", "billing.subscribe"))

      const writer = yield* actorWith("writer", ["team.permissions.write"])
      const error = yield* Effect.flip(getRolePermissionDetail(writer.principal, detail.id))
      assertMissingPermission(error, "team.read")

      const reader = yield* actorWith("reader", ["team.read"])
      assert.deepStrictEqual(yield* getRolePermissionDetail(reader.principal, detail.id), detail)
    }).pipe(provideRoster())
  )

  it.effect("an unknown record is NotFound", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(getRolePermissionDetail(master, RolePermissionDetailId.make(5)))
      assertNotFound(error, "role_permission_detail", "5")
    }).pipe(provideRoster())
  )
})
