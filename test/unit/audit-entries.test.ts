import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import {
  addMember,
  addRole,
  CurrentRequestId,
  changeOwnPassword,
  grantPermission,
  openLocalPrincipal,
  permissionIdOf,
  removeMember,
  removePermission,
  removeRole,
  setAccountStatus,
  setMemberPassword,
  updateMember,
  updateRole
} from "../../core/index.ts"
import { assertUnrecorded, theEntryOf } from "../support/audit.ts"
import { actorWith, master, memberInput, password, provideRoster, roleWith } from "../support/roster.ts"

const newPassword = Redacted.make("a brand new passphrase")

describe("the audit entry of a change", () => {
  it.effect("names a member actor by id, the master key and the open local mode by kind alone", () =>
    Effect.gen(function* () {
      const lead = yield* actorWith("lead", ["team.roles.write"])
      const byMember = yield* theEntryOf(addRole(lead.principal, { name: "One", roleKey: "one" }))
      assert.deepStrictEqual(byMember.entry.actor, { kind: "member", id: lead.member.id })
      const byMaster = yield* theEntryOf(addRole(master, { name: "Two", roleKey: "two" }))
      assert.deepStrictEqual(byMaster.entry.actor, { kind: "master" })
      const byOpen = yield* theEntryOf(addRole(openLocalPrincipal, { name: "Three", roleKey: "three" }))
      assert.deepStrictEqual(byOpen.entry.actor, { kind: "open" })
    }).pipe(provideRoster())
  )

  it.effect("names the request it served, and no request outside one", () =>
    Effect.gen(function* () {
      const inRequest = yield* theEntryOf(
        addRole(master, { name: "One", roleKey: "one" }).pipe(
          Effect.provideService(CurrentRequestId, "req-7")
        )
      )
      assert.strictEqual(inRequest.entry.requestId, "req-7")
      const outside = yield* theEntryOf(addRole(master, { name: "Two", roleKey: "two" }))
      assert.isFalse("requestId" in outside.entry, "no requestId key at all")
    }).pipe(provideRoster())
  )
})

describe("member entries", () => {
  it.effect("an addition records every shown field from nothing, and never the password", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const { result: pat, entry } = yield* theEntryOf(addMember(master, memberInput("pat", staff.id)))
      assert.strictEqual(entry.action, "member.added")
      assert.deepStrictEqual(entry.target, { type: "member", id: pat.id })
      assert.deepStrictEqual(entry.changes, {
        username: [null, "pat"],
        email: [null, "pat@example.com"],
        emailVerified: [null, false],
        activestatus: [null, true],
        accountActiveStatus: [null, true],
        roleId: [null, staff.id]
      })
      assert.notInclude(JSON.stringify(entry), password)
    }).pipe(provideRoster())
  )

  it.effect(
    "a change records the fields it changed, the e-mail as stored, and nothing when nothing changed",
    () =>
      Effect.gen(function* () {
        const staff = yield* roleWith("staff", [])
        const crew = yield* roleWith("crew", [])
        const pat = yield* addMember(master, memberInput("pat", staff.id))
        const renamed = yield* theEntryOf(
          updateMember(master, pat.id, { username: "patricia", email: "P@Example.ORG" })
        )
        assert.strictEqual(renamed.entry.action, "member.updated")
        assert.deepStrictEqual(renamed.entry.target, { type: "member", id: pat.id })
        assert.deepStrictEqual(renamed.entry.changes, {
          username: ["pat", "patricia"],
          email: ["pat@example.com", "p@example.org"]
        })
        const moved = yield* theEntryOf(
          updateMember(master, pat.id, { roleId: crew.id, activestatus: false })
        )
        assert.deepStrictEqual(moved.entry.changes, {
          activestatus: [true, false],
          roleId: [staff.id, crew.id]
        })
        // The same e-mail in other letters, the role and flag already held: nothing to record.
        yield* assertUnrecorded(
          updateMember(master, pat.id, { email: "p@EXAMPLE.org", roleId: crew.id, activestatus: false })
        )
      }).pipe(provideRoster())
  )

  it.effect("disabling and enabling an account record the flag, each under its own action", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const pat = yield* addMember(master, memberInput("pat", staff.id))
      const disabled = yield* theEntryOf(setAccountStatus(master, { memberId: pat.id, active: false }))
      assert.strictEqual(disabled.entry.action, "account.disabled")
      assert.deepStrictEqual(disabled.entry.target, { type: "member", id: pat.id })
      assert.deepStrictEqual(disabled.entry.changes, { accountActiveStatus: [true, false] })
      const enabled = yield* theEntryOf(setAccountStatus(master, { memberId: pat.id, active: true }))
      assert.strictEqual(enabled.entry.action, "account.enabled")
      assert.deepStrictEqual(enabled.entry.changes, { accountActiveStatus: [false, true] })
    }).pipe(provideRoster())
  )

  it.effect("a password set or changed is recorded without a trace of either password", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      const set = yield* theEntryOf(setMemberPassword(master, ada.member.id, { newPassword }))
      assert.strictEqual(set.entry.action, "member.password_set")
      assert.deepStrictEqual(set.entry.target, { type: "member", id: ada.member.id })
      assert.deepStrictEqual(set.entry.changes, {})
      const bob = yield* actorWith("bob", [])
      const changed = yield* theEntryOf(
        changeOwnPassword(
          bob.principal,
          { currentPassword: Redacted.make(password), newPassword },
          "192.0.2.1"
        )
      )
      assert.strictEqual(changed.entry.action, "member.password_changed")
      assert.deepStrictEqual(changed.entry.actor, { kind: "member", id: bob.member.id })
      assert.deepStrictEqual(changed.entry.target, { type: "member", id: bob.member.id })
      assert.deepStrictEqual(changed.entry.changes, {})
    }).pipe(provideRoster())
  )

  it.effect("a removal records every shown field going to nothing", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const pat = yield* addMember(master, memberInput("pat", staff.id, { activestatus: false }))
      const { entry } = yield* theEntryOf(removeMember(master, pat.id))
      assert.strictEqual(entry.action, "member.removed")
      assert.deepStrictEqual(entry.target, { type: "member", id: pat.id })
      assert.deepStrictEqual(entry.changes, {
        username: ["pat", null],
        email: ["pat@example.com", null],
        emailVerified: [false, null],
        activestatus: [false, null],
        accountActiveStatus: [true, null],
        roleId: [staff.id, null]
      })
    }).pipe(provideRoster())
  )
})

describe("role entries", () => {
  it.effect("an addition names the allocated id; a change records what changed; a removal what went", () =>
    Effect.gen(function* () {
      yield* addRole(master, { name: "First", roleKey: "first" })
      const { result: staff, entry } = yield* theEntryOf(addRole(master, { name: "Staff", roleKey: "staff" }))
      assert.strictEqual(entry.action, "role.added")
      assert.deepStrictEqual(entry.target, { type: "role", id: String(staff.id) })
      assert.deepStrictEqual(entry.changes, {
        name: [null, "Staff"],
        roleKey: [null, "staff"],
        activeStatus: [null, true]
      })
      const changed = yield* theEntryOf(updateRole(master, staff.id, { name: "Staff", activeStatus: false }))
      assert.strictEqual(changed.entry.action, "role.updated")
      assert.deepStrictEqual(changed.entry.target, { type: "role", id: String(staff.id) })
      assert.deepStrictEqual(changed.entry.changes, { activeStatus: [true, false] })
      yield* assertUnrecorded(updateRole(master, staff.id, { roleKey: "staff" }))
      const removed = yield* theEntryOf(removeRole(master, staff.id))
      assert.strictEqual(removed.entry.action, "role.removed")
      assert.deepStrictEqual(removed.entry.changes, {
        name: ["Staff", null],
        roleKey: ["staff", null],
        activeStatus: [false, null]
      })
    }).pipe(provideRoster())
  )
})

describe("permission entries", () => {
  it.effect("a grant names the role's record; a removal the permission gone; repeats record nothing", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const read = permissionIdOf("team.read")
      const audit = permissionIdOf("audit.read")
      const first = yield* theEntryOf(grantPermission(master, { roleId: staff.id, permissionId: read }))
      assert.strictEqual(first.entry.action, "permission.granted")
      const record = { type: "role_permission_detail", id: String(first.result.id) }
      assert.deepStrictEqual(first.entry.target, record)
      assert.deepStrictEqual(first.entry.changes, {
        roleId: [staff.id, staff.id],
        permissionId: [null, read]
      })
      const second = yield* theEntryOf(grantPermission(master, { roleId: staff.id, permissionId: audit }))
      assert.deepStrictEqual(second.entry.target, record, "the same record, now existing")
      yield* assertUnrecorded(grantPermission(master, { roleId: staff.id, permissionId: read }))
      const removed = yield* theEntryOf(removePermission(master, { id: first.result.id, permissionId: read }))
      assert.strictEqual(removed.entry.action, "permission.removed")
      assert.deepStrictEqual(removed.entry.target, record)
      assert.deepStrictEqual(removed.entry.changes, {
        roleId: [staff.id, staff.id],
        permissionId: [read, null]
      })
      yield* assertUnrecorded(removePermission(master, { id: first.result.id, permissionId: read }))
    }).pipe(provideRoster())
  )
})
