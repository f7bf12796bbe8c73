import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Schema } from "effect"
import {
  AddRoleInput,
  addRole,
  DuplicateRoleKey,
  getRole,
  listRoles,
  RoleId,
  RoleView,
  updateRole
} from "../../core/index.ts"
import {
  assertForbidden,
  assertMissingPermission,
  assertNotFound,
  assertSingleWinner
} from "../support/assertions.ts"
import { actorWith, master, provideRoster } from "../support/roster.ts"

describe("addRole", () => {
  it.effect("allocates ids 1, 2, 3 … in order", () =>
    Effect.gen(function* () {
      const first = yield* addRole(master, { name: "Owner", roleKey: "owner" })
      const second = yield* addRole(master, { name: "Admin", roleKey: "admin" })
      const third = yield* addRole(master, { name: "Viewer", roleKey: "viewer" })
      assert.deepStrictEqual([first.id, second.id, third.id], [1, 2, 3])
      assert.instanceOf(first, RoleView)
      assert.deepStrictEqual([first.permissionIds, first.recordId], [[], null], "a new role holds nothing")
      assert.strictEqual(second.name, "Admin")
      assert.strictEqual(second.roleKey, "admin")
    }).pipe(provideRoster())
  )

  it.effect("allocates distinct, contiguous ids under concurrent inserts", () =>
    Effect.gen(function* () {
      const count = 30
      const roles = yield* Effect.all(
        Array.from({ length: count }, (_, i) => addRole(master, { name: `Role ${i}`, roleKey: `role-${i}` })),
        { concurrency: "unbounded" }
      )
      const ids = roles.map((role) => role.id as number).sort((a, b) => a - b)
      assert.deepStrictEqual(
        ids,
        Array.from({ length: count }, (_, i) => i + 1)
      )
      // Each id belongs to the role that was given it.
      const listed = (yield* listRoles(master)).items
      assert.lengthOf(listed, count)
      for (const role of roles) {
        assert.strictEqual(listed.find((other) => other.id === role.id)?.roleKey, role.roleKey)
      }
      // The next insert continues the sequence.
      const next = yield* addRole(master, { name: "Next", roleKey: "next" })
      assert.strictEqual(next.id, count + 1)
    }).pipe(provideRoster())
  )

  it.effect("rejects a duplicate roleKey", () =>
    Effect.gen(function* () {
      const original = yield* addRole(master, { name: "Billing", roleKey: "billing" })
      const error = yield* Effect.flip(addRole(master, { name: "Billing again", roleKey: "billing" }))
      assert.instanceOf(error, DuplicateRoleKey)
      assert.strictEqual(error.roleKey, "billing")
      const listed = (yield* listRoles(master)).items
      assert.lengthOf(listed, 1)
      assert.strictEqual(listed[0]?.id, original.id)
      assert.strictEqual(listed[0]?.name, "Billing")
    }).pipe(provideRoster())
  )

  it.effect("lets exactly one of many concurrent inserts of one roleKey win", () =>
    Effect.gen(function* () {
      const results = yield* Effect.all(
        Array.from({ length: 20 }, (_, i) =>
          Effect.result(addRole(master, { name: `Contender ${i}`, roleKey: "contested" }))
        ),
        { concurrency: "unbounded" }
      )
      const winner = assertSingleWinner(results, DuplicateRoleKey)
      const listed = (yield* listRoles(master)).items
      assert.lengthOf(listed, 1)
      assert.strictEqual(listed[0]?.id, winner.id)
    }).pipe(provideRoster())
  )

  it.effect("defaults activeStatus to true when omitted and keeps false", () =>
    Effect.gen(function* () {
      const omitted = yield* addRole(master, { name: "Default", roleKey: "default" })
      const enabled = yield* addRole(master, { name: "Enabled", roleKey: "enabled", activeStatus: true })
      const disabled = yield* addRole(master, { name: "Disabled", roleKey: "disabled", activeStatus: false })
      assert.isTrue(omitted.activeStatus)
      assert.isTrue(enabled.activeStatus)
      assert.isFalse(disabled.activeStatus)
      const listed = (yield* listRoles(master)).items
      assert.isFalse(listed.find((role) => role.roleKey === "disabled")?.activeStatus)
      assert.isTrue(listed.find((role) => role.roleKey === "default")?.activeStatus)
    }).pipe(provideRoster())
  )

  it.effect("decoded input without activeStatus also yields an active role", () =>
    Effect.gen(function* () {
      const input = yield* Schema.decodeUnknownEffect(AddRoleInput)({ name: "Support", roleKey: "support" })
      const role = yield* addRole(master, input)
      assert.isTrue(role.activeStatus)
    }).pipe(provideRoster())
  )

  it.effect("requires team.roles.write", () =>
    Effect.gen(function* () {
      const reader = yield* actorWith("reader", ["team.read", "team.members.write", "team.permissions.write"])
      const before = (yield* listRoles(master)).items
      const error = yield* Effect.flip(addRole(reader.principal, { name: "Sneaky", roleKey: "sneaky" }))
      assertMissingPermission(error, "team.roles.write")
      assert.deepStrictEqual((yield* listRoles(master)).items, before)

      const writer = yield* actorWith("writer", ["team.roles.write"])
      const role = yield* addRole(writer.principal, { name: "Allowed", roleKey: "allowed" })
      assert.strictEqual(role.roleKey, "allowed")
    }).pipe(provideRoster())
  )
})

describe("listRoles", () => {
  it.effect("lists every role", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual((yield* listRoles(master)).items, [])
      const a = yield* addRole(master, { name: "A", roleKey: "a" })
      const b = yield* addRole(master, { name: "B", roleKey: "b", activeStatus: false })
      const listed = (yield* listRoles(master)).items
      assert.deepStrictEqual(
        [...listed].sort((x, y) => x.id - y.id),
        [a, b]
      )
    }).pipe(provideRoster())
  )

  it.effect("requires team.read", () =>
    Effect.gen(function* () {
      const writer = yield* actorWith("writer", ["team.roles.write"])
      const error = yield* Effect.flip(listRoles(writer.principal))
      assertMissingPermission(error, "team.read")

      const reader = yield* actorWith("reader", ["team.read"])
      const listed = (yield* listRoles(reader.principal)).items
      assert.sameMembers(
        listed.map((role) => role.roleKey),
        ["writer-role", "reader-role"]
      )
    }).pipe(provideRoster())
  )
})

describe("getRole", () => {
  it.effect("reads one role, or fails NotFound naming its id", () =>
    Effect.gen(function* () {
      const added = yield* addRole(master, { name: "A", roleKey: "a", activeStatus: false })
      assert.deepStrictEqual(yield* getRole(master, added.id), added)
      assertNotFound(
        yield* Effect.flip(getRole(master, RoleId.make(added.id + 1))),
        "role",
        String(added.id + 1)
      )
    }).pipe(provideRoster())
  )

  it.effect("requires team.read", () =>
    Effect.gen(function* () {
      const writer = yield* actorWith("writer", ["team.roles.write"])
      assertMissingPermission(yield* Effect.flip(getRole(writer.principal, writer.role.id)), "team.read")
      const reader = yield* actorWith("reader", ["team.read"])
      assert.strictEqual((yield* getRole(reader.principal, writer.role.id)).roleKey, "writer-role")
    }).pipe(provideRoster())
  )
})

describe("updateRole", () => {
  it.effect("changes only what it is given and answers the role", () =>
    Effect.gen(function* () {
      const added = yield* addRole(master, { name: "A", roleKey: "a" })
      const updated = yield* updateRole(master, added.id, { name: "Alpha", activeStatus: false })
      const deactivatedAt = updated.deactivatedAt ?? assert.fail("a deactivation is recorded")
      assert.deepStrictEqual(
        updated,
        new RoleView({ ...added, name: "Alpha", activeStatus: false, deactivatedAt })
      )
      assert.deepStrictEqual(yield* getRole(master, added.id), updated)
      assert.deepStrictEqual(yield* updateRole(master, added.id, {}), updated)
    }).pipe(provideRoster())
  )

  it.effect("refuses a taken roleKey, an unknown role, and a caller without team.roles.write", () =>
    Effect.gen(function* () {
      const a = yield* addRole(master, { name: "A", roleKey: "a" })
      const b = yield* addRole(master, { name: "B", roleKey: "b" })
      assert.instanceOf(yield* Effect.flip(updateRole(master, b.id, { roleKey: "a" })), DuplicateRoleKey)
      assertNotFound(yield* Effect.flip(updateRole(master, RoleId.make(999), { name: "X" })), "role", "999")
      const reader = yield* actorWith("reader", ["team.read"])
      assertMissingPermission(
        yield* Effect.flip(updateRole(reader.principal, a.id, { name: "X" })),
        "team.roles.write"
      )
      assert.deepStrictEqual(yield* getRole(master, a.id), a)
    }).pipe(provideRoster())
  )

  it.effect("leaves a role holding permissions the caller lacks alone", () =>
    Effect.gen(function* () {
      const admin = yield* actorWith("admin", ["team.read", "billing.subscribe"])
      const editor = yield* actorWith("editor", ["team.roles.write"])
      const error = yield* Effect.flip(updateRole(editor.principal, admin.role.id, { activeStatus: false }))
      assertForbidden(error, "role_exceeds_own")
      assert.isTrue((yield* getRole(master, admin.role.id)).activeStatus)
      const own = yield* updateRole(editor.principal, editor.role.id, { name: "Editors" })
      assert.strictEqual(own.name, "Editors")
    }).pipe(provideRoster())
  )
})

describe("AddRoleInput", () => {
  const decode = Schema.decodeUnknownExit(AddRoleInput)

  it.each([
    ["a simple slug", { name: "Admin", roleKey: "admin" }],
    ["a slug with dashes and digits", { name: "Billing admin", roleKey: "billing-admin-2" }],
    ["an explicit inactive flag", { name: "Old", roleKey: "old", activeStatus: false }]
  ])("accepts %s", (_, input) => {
    assert.isTrue(Exit.isSuccess(decode(input)))
  })

  it.each([
    ["an upper-case roleKey", { name: "Admin", roleKey: "Admin" }],
    ["a roleKey with a space", { name: "Admin", roleKey: "billing admin" }],
    ["a roleKey with a trailing dash", { name: "Admin", roleKey: "admin-" }],
    ["an empty roleKey", { name: "Admin", roleKey: "" }],
    ["a roleKey over 64 characters", { name: "Admin", roleKey: "a".repeat(65) }],
    ["an empty name", { name: "", roleKey: "admin" }],
    ["an untrimmed name", { name: " Admin ", roleKey: "admin" }],
    ["a string activeStatus", { name: "Admin", roleKey: "admin", activeStatus: "false" }],
    ["a missing roleKey", { name: "Admin" }]
  ])("rejects %s", (_, input) => {
    assert.isTrue(Exit.isFailure(decode(input)))
  })
})
