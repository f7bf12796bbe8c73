import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  CurrentOrganization,
  OrganizationId,
  PermissionId,
  type RoleId,
  RoleLookup,
  RolePermissionStore,
  RoleStore,
  type RoleWithPermissions
} from "../../core/index.ts"
import { at, newRole, valueOf } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

/** What a change to the role sees of it: its name, whether it is active, and what it holds. */
const seen = (id: RoleId) =>
  RoleLookup.use((lookup) => lookup.find(id)).pipe(
    Effect.map(
      Option.match({
        onNone: () => undefined,
        onSome: ({ role, permissionIds }) => ({
          name: role.name,
          active: role.activeStatus,
          permissionIds: permissionIds.map(Number)
        })
      })
    )
  )

describe.each(storeKinds)("RoleLookup on %s", (_, stores) => {
  it.effect("answers the role with its permissions as stored, and nothing of another organisation", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const permissions = yield* RolePermissionStore
      const role = yield* roles.insert(newRole("staff"))
      const other = yield* roles.insert(newRole("other"))
      assert.deepStrictEqual(yield* seen(role.id), { name: "Role staff", active: true, permissionIds: [] })
      const detail = valueOf(yield* permissions.grant(role.id, PermissionId.make(3), at(1)))
      yield* permissions.grant(role.id, PermissionId.make(1), at(1))
      yield* permissions.grant(other.id, PermissionId.make(2), at(1))
      assert.deepStrictEqual(yield* seen(role.id), {
        name: "Role staff",
        active: true,
        permissionIds: [1, 3]
      })
      yield* permissions.revoke(detail, PermissionId.make(3), at(2))
      yield* roles.update(role.id, { name: "Staff", activeStatus: false })
      assert.deepStrictEqual(yield* seen(role.id), { name: "Staff", active: false, permissionIds: [1] })
      assert.isUndefined(
        yield* Effect.provideService(seen(role.id), CurrentOrganization, OrganizationId.make("org-other")),
        "another organisation's role is not found"
      )
      yield* permissions.removeOfRole(other.id)
      yield* roles.remove(other.id)
      assert.isUndefined(yield* seen(other.id), "a removed role")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("pages roles by id with what each holds and its record's id, in its organisation only", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const permissions = yield* RolePermissionStore
      const lookup = yield* RoleLookup
      const [a, b, c] = [
        yield* roles.insert(newRole("a")),
        yield* roles.insert(newRole("b")),
        yield* roles.insert(newRole("c"))
      ]
      yield* Effect.provideService(
        roles.insert(newRole("theirs")),
        CurrentOrganization,
        OrganizationId.make("org-other")
      )
      const record = valueOf(yield* permissions.grant(b.id, PermissionId.make(4), at(1)))
      yield* permissions.grant(b.id, PermissionId.make(2), at(1))
      const summary = (page: ReadonlyArray<RoleWithPermissions>) =>
        page.map(({ role, permissionIds, recordId }) => [
          role.id,
          permissionIds.map(Number),
          recordId ?? null
        ])
      assert.deepStrictEqual(summary(yield* lookup.page(undefined, 10)), [
        [a.id, [], null],
        [b.id, [2, 4], record.id],
        [c.id, [], null]
      ])
      assert.deepStrictEqual(summary(yield* lookup.page(a.id, 1)), [[b.id, [2, 4], record.id]])
      assert.deepStrictEqual(valueOf(yield* lookup.find(b.id)).recordId, record.id)
      assert.isUndefined(valueOf(yield* lookup.find(c.id)).recordId)
    }).pipe(Effect.provide(stores()))
  )
})
