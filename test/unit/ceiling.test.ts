import { assert, describe, it } from "@effect/vitest"
import { Effect, type Layer, Option, Redacted } from "effect"
import {
  addMember,
  grantPermission,
  LastOwner,
  type MemberId,
  MemberStore,
  PermissionCatalog,
  type PermissionKey,
  permissionIdOf,
  type RoleId,
  RoleStore,
  removeMember,
  removePermission,
  setAccountStatus,
  setMemberPassword,
  updateMember,
  updateRole
} from "../../core/index.ts"
import { assertForbidden } from "../support/assertions.ts"
import { detailOfRole, idsOf } from "../support/role-permissions.ts"
import {
  actorWith,
  master,
  memberInput,
  provideRoster,
  roleWith,
  type testRoster
} from "../support/roster.ts"

type RosterServices = Layer.Success<ReturnType<typeof testRoster>>

const everything = PermissionCatalog.map((permission) => permission.key)

const roleIsActive = (roleId: RoleId) =>
  RoleStore.use((roles) => roles.findById(roleId)).pipe(
    Effect.map((role) => Option.getOrThrow(role).activeStatus)
  )

const memberOf = (id: MemberId) =>
  MemberStore.use((members) => members.findById(id)).pipe(Effect.map(Option.getOrThrow))

describe("the ceiling on changing roles", () => {
  const lessPrivileged: ReadonlyArray<PermissionKey> = [
    "team.read",
    "team.permissions.write",
    "team.roles.write"
  ]

  it.effect("nobody removes a permission from a role holding more than they do", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("remover", lessPrivileged)
      const admins = yield* roleWith("admins", ["team.read", "admin.accounts.write"])
      const before = yield* detailOfRole(admins.id)
      // `team.read` is held by the remover: only the role's other permission puts it above them.
      const error = yield* Effect.flip(
        removePermission(principal, { id: before.id, permissionId: permissionIdOf("team.read") })
      )
      assertForbidden(error, "role_exceeds_own")
      assert.deepStrictEqual((yield* detailOfRole(admins.id)).permissionIds, before.permissionIds)
    }).pipe(provideRoster())
  )

  it.effect("nobody grants to a role holding more than they do, even a permission they hold", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("granter", lessPrivileged)
      const admins = yield* roleWith("admins", ["admin.accounts.write"])
      const error = yield* Effect.flip(
        grantPermission(principal, { roleId: admins.id, permissionId: permissionIdOf("team.read") })
      )
      assertForbidden(error, "role_exceeds_own")
      assert.deepStrictEqual((yield* detailOfRole(admins.id)).permissionIds, idsOf("admin.accounts.write"))
    }).pipe(provideRoster())
  )

  it.effect("a member neither deactivates their own role nor strips it, but may rename it", () =>
    Effect.gen(function* () {
      const { principal, role } = yield* actorWith("lead", lessPrivileged)
      assertForbidden(yield* Effect.flip(updateRole(principal, role.id, { activeStatus: false })), "own_role")
      assert.isTrue(yield* roleIsActive(role.id))
      const detail = yield* detailOfRole(role.id)
      assertForbidden(
        yield* Effect.flip(
          removePermission(principal, { id: detail.id, permissionId: permissionIdOf("team.read") })
        ),
        "own_role"
      )
      assert.deepStrictEqual((yield* detailOfRole(role.id)).permissionIds, detail.permissionIds)
      const renamed = yield* updateRole(principal, role.id, { name: "Leads" })
      assert.strictEqual(renamed.name, "Leads")
    }).pipe(provideRoster())
  )
})

describe("acting on oneself", () => {
  const administrator: ReadonlyArray<PermissionKey> = [
    "team.read",
    "team.members.write",
    "admin.accounts.write"
  ]

  it.effect(
    "a member neither moves nor deactivates themselves, nor moves their own e-mail, but may rename themselves",
    () =>
      Effect.gen(function* () {
        const { principal, member } = yield* actorWith("self", administrator)
        const lower = yield* roleWith("lower", ["team.read"])
        assertForbidden(
          yield* Effect.flip(updateMember(principal, member.id, { roleId: lower.id })),
          "self_action"
        )
        assertForbidden(
          yield* Effect.flip(updateMember(principal, member.id, { activestatus: false })),
          "self_action"
        )
        const unchanged = yield* memberOf(member.id)
        assert.strictEqual(unchanged.roleId, member.roleId)
        assert.isTrue(unchanged.activestatus)
        assertForbidden(
          yield* Effect.flip(updateMember(principal, member.id, { email: "me@example.com" })),
          "own_email"
        )
        const same = yield* updateMember(principal, member.id, { roleId: member.roleId, username: "myself" })
        assert.deepStrictEqual([same.username, same.email], ["myself", "self@example.com"])
      }).pipe(provideRoster())
  )

  it.effect("the administrator's password endpoint refuses the caller's own account", () =>
    Effect.gen(function* () {
      const { principal, member } = yield* actorWith("admin", administrator)
      const before = Option.getOrThrow(yield* (yield* MemberStore).findAccount(member.id))
      const error = yield* Effect.flip(
        setMemberPassword(principal, member.id, { newPassword: Redacted.make("a brand new passphrase") })
      )
      assertForbidden(error, "self_action")
      assert.strictEqual(
        Option.getOrThrow(yield* (yield* MemberStore).findAccount(member.id)).passwordHash,
        before.passwordHash
      )
    }).pipe(provideRoster())
  )
})

describe("the last owner", () => {
  const owners = Effect.gen(function* () {
    const role = yield* roleWith("owners", everything)
    const owner = yield* addMember(master, memberInput("owner", role.id))
    return { role, owner }
  })

  it.effect("the master key cannot take the only owner's standing away in any of the ways there are", () =>
    Effect.gen(function* () {
      const { role, owner } = yield* owners
      const lower = yield* roleWith("lower", ["team.read"])
      const attempts: ReadonlyArray<Effect.Effect<unknown, unknown, RosterServices>> = [
        updateMember(master, owner.id, { activestatus: false }),
        updateMember(master, owner.id, { roleId: lower.id }),
        removeMember(master, owner.id),
        setAccountStatus(master, { memberId: owner.id, active: false }),
        updateRole(master, role.id, { activeStatus: false }),
        Effect.flatMap(detailOfRole(role.id), (detail) =>
          removePermission(master, { id: detail.id, permissionId: permissionIdOf("audit.read") })
        )
      ]
      for (const attempt of attempts) assert.instanceOf(yield* Effect.flip(attempt), LastOwner)
      const after = yield* memberOf(owner.id)
      assert.isTrue(after.activestatus && after.accountActiveStatus)
      assert.strictEqual(after.roleId, role.id)
      assert.isTrue(yield* roleIsActive(role.id))
      assert.lengthOf((yield* detailOfRole(role.id)).permissionIds, everything.length)
    }).pipe(provideRoster())
  )

  it.effect("with a second owner, either may go; renaming the owners' role is always fine", () =>
    Effect.gen(function* () {
      const { role, owner } = yield* owners
      const second = yield* addMember(master, memberInput("second", role.id))
      yield* updateRole(master, role.id, { name: "Owners" })
      yield* updateMember(master, owner.id, { activestatus: false })
      assert.instanceOf(yield* Effect.flip(removeMember(master, second.id)), LastOwner)
      yield* updateMember(master, owner.id, { activestatus: true })
      yield* removeMember(master, second.id)
    }).pipe(provideRoster())
  )

  it.effect("an owner in another owners' role keeps the team administrable", () =>
    Effect.gen(function* () {
      const { role } = yield* owners
      const founders = yield* roleWith("founders", everything)
      yield* addMember(master, memberInput("founder", founders.id))
      const deactivated = yield* updateRole(master, role.id, { activeStatus: false })
      assert.isFalse(deactivated.activeStatus)
      assert.instanceOf(
        yield* Effect.flip(updateRole(master, founders.id, { activeStatus: false })),
        LastOwner
      )
    }).pipe(provideRoster())
  )

  it.effect("a team that never had an owner is not held to having one", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", ["team.read"])
      const member = yield* addMember(master, memberInput("staffer", staff.id))
      yield* setAccountStatus(master, { memberId: member.id, active: false })
      yield* removeMember(master, member.id)
    }).pipe(provideRoster())
  )
})
