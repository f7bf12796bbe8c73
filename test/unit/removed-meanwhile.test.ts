import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  addMember,
  authenticate,
  changeOwnPassword,
  grantPermission,
  type MemberId,
  MemberStore,
  permissionIdOf,
  RoleLookup,
  RolePermissionStore,
  RoleStore,
  removeMember,
  removePermission,
  removeRole,
  setAccountStatus,
  setMemberPassword,
  Unauthenticated,
  UnknownRole,
  updateMember,
  updateRole
} from "../../core/index.ts"
import { assertNotFound } from "../support/assertions.ts"
import { assertUnrecorded } from "../support/audit.ts"
import { actorWith, master, memberInput, password, provideRoster, roleWith } from "../support/roster.ts"

/**
 * The stores as another request sees them: whatever this use case reads by id is removed right
 * after the read, before its own write. Only the record's removal is between the two.
 */
const withMemberRemovedAfterRead = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const members = yield* MemberStore
    return yield* Effect.provideService(self, MemberStore, {
      ...members,
      findById: (id) => members.findById(id).pipe(Effect.tap(() => members.remove(id))),
      findWithMemberships: (id) => members.findWithMemberships(id).pipe(Effect.tap(() => members.remove(id))),
      findAccount: (id) => members.findAccount(id).pipe(Effect.tap(() => members.remove(id)))
    })
  })

const withRoleRemovedAfterRead = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const roles = yield* RoleStore
    const lookup = yield* RoleLookup
    return yield* self.pipe(
      Effect.provideService(RoleStore, {
        ...roles,
        findById: (id) => roles.findById(id).pipe(Effect.tap(() => roles.remove(id)))
      }),
      Effect.provideService(RoleLookup, {
        ...lookup,
        find: (id) => lookup.find(id).pipe(Effect.tap(() => roles.remove(id).pipe(Effect.orDie)))
      })
    )
  })

const withRecordRemovedAfterRead = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const records = yield* RolePermissionStore
    return yield* Effect.provideService(self, RolePermissionStore, {
      ...records,
      findById: (id) =>
        records
          .findById(id)
          .pipe(
            Effect.tap((found) =>
              Option.isSome(found) ? records.removeOfRole(found.value.roleId) : Effect.void
            )
          )
    })
  })

const newPassword = Redacted.make("a brand new passphrase")

describe("a record removed between a use case's read and its write", () => {
  it.effect("a member: each change of them is NotFound and records nothing", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const expectNotFound = <A, E, R>(username: string, change: (id: MemberId) => Effect.Effect<A, E, R>) =>
        Effect.gen(function* () {
          const member = yield* addMember(master, memberInput(username, staff.id))
          const error = yield* assertUnrecorded(Effect.flip(withMemberRemovedAfterRead(change(member.id))))
          assertNotFound(error, "member", member.id)
        })
      yield* expectNotFound("removal", (id) => removeMember(master, id))
      yield* expectNotFound("password", (id) => setMemberPassword(master, id, { newPassword }))
      yield* expectNotFound("account", (id) => setAccountStatus(master, { memberId: id, active: false }))
      yield* expectNotFound("renamed", (id) => updateMember(master, id, { username: "renamed-meanwhile" }))
    }).pipe(provideRoster())
  )

  it.effect("a role: its change and its removal are NotFound and record nothing", () =>
    Effect.gen(function* () {
      const one = yield* roleWith("one", [])
      const changed = yield* assertUnrecorded(
        Effect.flip(withRoleRemovedAfterRead(updateRole(master, one.id, { name: "Uno" })))
      )
      assertNotFound(changed, "role", String(one.id))
      const two = yield* roleWith("two", [])
      const removed = yield* assertUnrecorded(
        Effect.flip(withRoleRemovedAfterRead(removeRole(master, two.id)))
      )
      assertNotFound(removed, "role", String(two.id))
    }).pipe(provideRoster())
  )

  it.effect("a role a member is being added to: UnknownRole, and no member is stored", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const error = yield* assertUnrecorded(
        Effect.flip(withRoleRemovedAfterRead(addMember(master, memberInput("pat", staff.id))))
      )
      assert.instanceOf(error, UnknownRole)
      assert.strictEqual(error.roleId, staff.id)
      assert.isTrue(Option.isNone(yield* (yield* MemberStore).findByLogin("pat")))
    }).pipe(provideRoster())
  )

  it.effect("a role a member is being moved to: UnknownRole, and the member stays where they were", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const crew = yield* roleWith("crew", [])
      const pat = yield* addMember(master, memberInput("pat", staff.id))
      const roles = yield* RoleStore
      const lookup = yield* RoleLookup
      // Only the role moved to is removed: the one the member holds cannot be.
      const crewRemovedAfterRead = RoleLookup.of({
        ...lookup,
        find: (id) =>
          lookup
            .find(id)
            .pipe(Effect.tap(() => (id === crew.id ? roles.remove(id).pipe(Effect.orDie) : Effect.void)))
      })
      const error = yield* assertUnrecorded(
        Effect.flip(
          updateMember(master, pat.id, { roleId: crew.id, activestatus: false }).pipe(
            Effect.provideService(RoleLookup, crewRemovedAfterRead)
          )
        )
      )
      assert.instanceOf(error, UnknownRole)
      assert.strictEqual(error.roleId, crew.id)
      const stored = yield* (yield* MemberStore).findById(pat.id)
      assert.deepStrictEqual(
        Option.map(stored, (member) => [member.roleId, member.activestatus]),
        Option.some([staff.id, true]),
        "the membership did not change"
      )
    }).pipe(provideRoster())
  )

  it.effect("a role a permission is being granted to: UnknownRole, and no record is made", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const permissionId = permissionIdOf("team.read")
      const error = yield* assertUnrecorded(
        Effect.flip(withRoleRemovedAfterRead(grantPermission(master, { roleId: staff.id, permissionId })))
      )
      assert.instanceOf(error, UnknownRole)
      assert.strictEqual(error.roleId, staff.id)
      assert.isTrue(Option.isNone(yield* (yield* RolePermissionStore).findByRole(staff.id)))
    }).pipe(provideRoster())
  )

  it.effect("a role's permission record: removing a permission from it is NotFound", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const permissionId = permissionIdOf("team.read")
      const record = yield* grantPermission(master, { roleId: staff.id, permissionId })
      const error = yield* assertUnrecorded(
        Effect.flip(withRecordRemovedAfterRead(removePermission(master, { id: record.id, permissionId })))
      )
      assertNotFound(error, "role_permission_detail", String(record.id))
    }).pipe(provideRoster())
  )

  it.effect("the signed-in member: their session no longer authenticates, nor changes a password", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      const change = changeOwnPassword(
        ada.principal,
        { currentPassword: Redacted.make(password), newPassword },
        "192.0.2.1"
      )
      const midway = yield* assertUnrecorded(Effect.flip(withMemberRemovedAfterRead(change)))
      assert.instanceOf(midway, Unauthenticated)
      assert.strictEqual(midway.reason, "invalid")
      // Removed behind the use cases' back, leaving the session stored: it is worth nothing.
      const bob = yield* actorWith("bob", [])
      yield* (yield* MemberStore).remove(bob.member.id)
      const stale = yield* Effect.flip(authenticate(Option.some(bob.token)))
      assert.instanceOf(stale, Unauthenticated)
      assert.strictEqual(stale.reason, "invalid")
      const before = yield* Effect.flip(
        changeOwnPassword(
          bob.principal,
          { currentPassword: Redacted.make(password), newPassword },
          "192.0.2.1"
        )
      )
      assert.instanceOf(before, Unauthenticated)
      assert.strictEqual(before.reason, "invalid")
    }).pipe(provideRoster())
  )
})
