import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { hashToken } from "../../adapters/crypto/index.ts"
import {
  AuditEntry,
  AuditEntryId,
  AuditLog,
  addMember,
  addRole,
  CurrentRequestId,
  CurrentRequestKey,
  defaultOrganizationId,
  grantPermission,
  listAuditEvents,
  logIn,
  MemberId,
  permissionIdOf,
  RolePermissionDetailId,
  removeMember,
  removePermission,
  removeRole,
  setAccountStatus,
  setMemberPassword,
  updateMember,
  updateRole
} from "../../core/index.ts"
import { corePortsOn } from "../support/contract.ts"
import { master, memberInput, password } from "../support/roster.ts"
import { storeKinds } from "../support/stores.ts"

const all = Effect.flatMap(AuditLog, (log) => log.page({}, 1000))

describe.each(storeKinds)("the audit record on %s", (_, stores) => {
  it.effect("records every change with its actor, target and changes, newest first, never a secret", () =>
    Effect.gen(function* () {
      const role = yield* addRole(master, { name: "Staff", roleKey: "staff" })
      const crew = yield* addRole(master, { name: "Crew", roleKey: "crew" })
      const record = yield* grantPermission(master, {
        roleId: role.id,
        permissionId: permissionIdOf("team.read")
      })
      const ada = yield* addMember(master, memberInput("ada", role.id)).pipe(
        Effect.provideService(CurrentRequestId, "req-add-ada")
      )
      yield* updateMember(master, ada.id, { email: "ADA@example.org", roleId: crew.id })
      yield* setAccountStatus(master, { memberId: ada.id, active: false })
      yield* setMemberPassword(master, ada.id, { newPassword: Redacted.make("another long password") })
      yield* updateRole(master, role.id, { name: "Staffers" })
      yield* removePermission(master, { id: record.id, permissionId: permissionIdOf("team.read") })
      yield* removeMember(master, ada.id)
      yield* removeRole(master, role.id)

      const entries = yield* all
      assert.deepStrictEqual(
        entries.map((entry) => entry.action),
        [
          "role.removed",
          "member.removed",
          "permission.removed",
          "role.updated",
          "member.password_set",
          "account.disabled",
          "member.updated",
          "member.updated",
          "member.added",
          "permission.granted",
          "role.added",
          "role.added"
        ]
      )
      const byAction = (action: string) => entries.find((entry) => entry.action === action)
      const added = byAction("member.added")
      assert.deepStrictEqual(added?.target, { type: "member", id: ada.id })
      assert.deepStrictEqual(added?.actor, { kind: "master" })
      assert.strictEqual(added?.requestId, "req-add-ada")
      assert.deepStrictEqual(added?.changes.email, [null, "ada@example.com"])
      // The account's part of a change and the membership's are written, and recorded, one after the other.
      assert.deepStrictEqual(
        entries.filter((entry) => entry.action === "member.updated").map((entry) => entry.changes),
        [{ roleId: [role.id, crew.id] }, { email: ["ada@example.com", "ada@example.org"] }]
      )
      assert.deepStrictEqual(byAction("account.disabled")?.changes, { accountActiveStatus: [true, false] })
      assert.deepStrictEqual(byAction("role.updated")?.changes, { name: ["Staff", "Staffers"] })
      assert.deepStrictEqual(byAction("permission.granted")?.target, {
        type: "role_permission_detail",
        id: String(record.id)
      })
      assert.deepStrictEqual(byAction("permission.removed")?.changes.permissionId, [1, null])
      assert.deepStrictEqual(byAction("role.removed")?.changes.roleKey, ["staff", null])
      assert.deepStrictEqual(byAction("role.added")?.target, { type: "role", id: String(crew.id) })
      const text = JSON.stringify(entries)
      for (const secret of [password, "another long password", "$scrypt", "passwordHash"]) {
        assert.notInclude(text, secret)
      }
    }).pipe(Effect.provide(corePortsOn(stores())))
  )

  it.effect("finds the change a request with a key made, by the key's digest, and nothing for another", () =>
    Effect.gen(function* () {
      const role = yield* addRole(master, { name: "Staff", roleKey: "staff" }).pipe(
        Effect.provideService(CurrentRequestKey, "digest-role")
      )
      const ada = yield* addMember(master, memberInput("ada", role.id)).pipe(
        Effect.provideService(CurrentRequestKey, "digest-ada")
      )
      yield* updateMember(master, ada.id, { username: "ada" }).pipe(
        Effect.provideService(CurrentRequestKey, "digest-unchanged")
      )
      const log = yield* AuditLog
      const found = yield* log.changeOfRequest("digest-ada")
      assert.isTrue(Option.isSome(found))
      if (Option.isSome(found)) {
        assert.deepStrictEqual(
          [found.value.action, found.value.target],
          ["member.added", { type: "member", id: ada.id }]
        )
        assert.strictEqual(found.value.requestKey, "digest-ada")
      }
      const ofRole = yield* log.changeOfRequest("digest-role")
      assert.deepStrictEqual(
        Option.map(ofRole, (entry) => entry.target.id),
        Option.some(String(role.id))
      )
      assert.isTrue(Option.isNone(yield* log.changeOfRequest("digest-unchanged")), "it changed nothing")
      assert.isTrue(Option.isNone(yield* log.changeOfRequest("digest-other")))
    }).pipe(Effect.provide(corePortsOn(stores())))
  )

  it.effect("records nothing for what changed nothing", () =>
    Effect.gen(function* () {
      const role = yield* addRole(master, { name: "Staff", roleKey: "staff" })
      const record = yield* grantPermission(master, {
        roleId: role.id,
        permissionId: permissionIdOf("team.read")
      })
      const ada = yield* addMember(master, memberInput("ada", role.id))
      const before = (yield* all).length
      yield* grantPermission(master, { roleId: role.id, permissionId: permissionIdOf("team.read") })
      yield* removePermission(master, { id: record.id, permissionId: permissionIdOf("billing.read") })
      yield* updateRole(master, role.id, { name: "Staff" })
      yield* updateMember(master, ada.id, { username: "ada" })
      yield* Effect.flip(
        removePermission(master, { id: RolePermissionDetailId.make(99), permissionId: 1 as never })
      )
      yield* Effect.flip(removeMember(master, MemberId.make("nobody")))
      assert.strictEqual((yield* all).length, before)
    }).pipe(Effect.provide(corePortsOn(stores())))
  )

  it.effect("records failed and throttled logins, with the account and the client, not the password", () =>
    Effect.gen(function* () {
      const role = yield* addRole(master, { name: "Staff", roleKey: "staff" })
      const ada = yield* addMember(master, memberInput("ada", role.id))
      const attempt = (username: string) =>
        Effect.flip(logIn({ username, password: Redacted.make("wrong guess!"), client: "198.51.100.7" }))
      yield* attempt("ada")
      yield* attempt("nobody")
      yield* attempt("ada")
      const logins = (yield* all).filter((entry) => entry.target.type === "login")
      assert.deepStrictEqual(
        logins.map((entry) => [entry.action, entry.target.id]),
        [
          ["login.throttled", ada.id],
          ["login.failed", `unknown:${hashToken("nobody").slice(0, 16)}`],
          ["login.failed", ada.id]
        ]
      )
      assert.notInclude(JSON.stringify(logins), "nobody")
      assert.deepStrictEqual(logins[0]?.changes, { client: [null, "198.51.100.7"] })
      assert.deepStrictEqual(logins[0]?.actor, { kind: "open" })
      assert.notInclude(JSON.stringify(logins), "wrong guess!")
    }).pipe(Effect.provide(corePortsOn(stores(), { throttle: { maxFailuresPerAccount: 1 } })))
  )

  it.effect("gives back an entry as it was recorded, every field intact", () =>
    Effect.gen(function* () {
      const entry = new AuditEntry({
        id: AuditEntryId.make("aud_0001"),
        at: DateTime.makeUnsafe(Date.UTC(2026, 10, 23, 9, 30, 15, 250)),
        action: "member.updated",
        actor: { kind: "member", id: "actor-1" },
        target: { type: "member", id: "target-1" },
        changes: { email: ["a@example.org", "b@example.org"], roleId: [1, 2], activestatus: [true, null] },
        requestId: "req-intact",
        organizationId: defaultOrganizationId
      })
      yield* AuditLog.use((log) => log.record(entry))
      const [listed] = yield* AuditLog.use((log) => log.page({ actorId: "actor-1" }, 10))
      assert.deepStrictEqual(listed, entry)
      assert.lengthOf(yield* AuditLog.use((log) => log.page({ actorId: "actor-2" }, 10)), 0)
    }).pipe(Effect.provide(corePortsOn(stores())))
  )

  it.effect("lists pages newest first, filtered by action, actor, target and time", () =>
    Effect.gen(function* () {
      const role = yield* addRole(master, { name: "Staff", roleKey: "staff" })
      yield* TestClock.adjust("10 seconds")
      const ada = yield* addMember(master, memberInput("ada", role.id))
      const bob = yield* addMember(master, memberInput("bob", role.id))
      yield* updateMember(master, ada.id, { username: "ada2" })
      const first = yield* listAuditEvents(master, { limit: 2 })
      assert.deepStrictEqual(
        first.items.map((entry) => entry.action),
        ["member.updated", "member.added"]
      )
      const after = Option.getOrThrow(first.next)
      const second = yield* listAuditEvents(master, { limit: 2, after })
      assert.deepStrictEqual(
        second.items.map((entry) => entry.target.id),
        [ada.id, String(role.id)]
      )
      assert.isTrue(Option.isNone(second.next))
      const aboutAda = yield* listAuditEvents(master, { targetId: ada.id })
      assert.deepStrictEqual(
        aboutAda.items.map((entry) => entry.action),
        ["member.updated", "member.added"]
      )
      const additions = yield* listAuditEvents(master, { action: "member.added" })
      assert.deepStrictEqual(
        additions.items.map((entry) => entry.target.id),
        [bob.id, ada.id]
      )
      const recent = yield* listAuditEvents(master, { since: first.items[1]?.at ?? assert.fail("no entry") })
      assert.lengthOf(recent.items, 3)
      assert.lengthOf((yield* listAuditEvents(master, { actorId: "someone" })).items, 0)
    }).pipe(Effect.provide(corePortsOn(stores())))
  )
})
