import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, type Redacted } from "effect"
import {
  addMember,
  authenticate,
  EditConflict,
  MemberId,
  MemberStore,
  RoleId,
  RoleInUse,
  removeMember,
  removeRole,
  UnknownRole,
  updateMember
} from "../../core/index.ts"
import { assertForbidden, assertMissingPermission, assertNotFound } from "../support/assertions.ts"
import { actorWith, master, memberInput, provideRoster, roleWith } from "../support/roster.ts"

/** Whether `token` still authenticates. */
const signedIn = (token: Redacted.Redacted<string>) =>
  authenticate(Option.some(token)).pipe(
    Effect.as(true),
    Effect.catchTag("Unauthenticated", () => Effect.succeed(false))
  )

describe("updateMember", () => {
  it.effect("merges the changes, lower-cases the e-mail, and keeps sessions on a rename", () =>
    Effect.gen(function* () {
      const { member, token } = yield* actorWith("ada", ["team.read"])
      const updated = yield* updateMember(master, member.id, { username: "lovelace", email: "A@Example.ORG" })
      assert.strictEqual(updated.username, "lovelace")
      assert.strictEqual(updated.email, "a@example.org")
      assert.strictEqual(updated.roleId, member.roleId)
      assert.isTrue(yield* signedIn(token))
    }).pipe(provideRoster())
  )

  it.effect("moving a member or deactivating them ends their sessions", () =>
    Effect.gen(function* () {
      const other = yield* roleWith("other", [])
      const ada = yield* actorWith("ada", ["team.read"])
      yield* updateMember(master, ada.member.id, { roleId: other.id })
      assert.isFalse(yield* signedIn(ada.token), "moved")
      const bob = yield* actorWith("bob", ["team.read"])
      yield* updateMember(master, bob.member.id, { activestatus: false })
      assert.isFalse(yield* signedIn(bob.token), "deactivated")
      const carl = yield* actorWith("carl", ["team.read"])
      yield* updateMember(master, carl.member.id, { roleId: carl.role.id, activestatus: true })
      assert.isTrue(yield* signedIn(carl.token), "moved to the role they hold: no move")
    }).pipe(provideRoster())
  )

  it.effect(
    "refuses self-deactivation, missing permission, unknown members and roles, and reaching beyond one's own",
    () =>
      Effect.gen(function* () {
        const lead = yield* actorWith("lead", ["team.read", "team.members.write"])
        const boss = yield* actorWith("boss", ["team.read", "team.members.write", "admin.accounts.write"])
        const plain = yield* roleWith("plain", [])
        const pat = yield* addMember(master, memberInput("pat", plain.id))
        assertForbidden(
          yield* Effect.flip(updateMember(lead.principal, lead.member.id, { activestatus: false })),
          "self_action"
        )
        assertForbidden(
          yield* Effect.flip(updateMember(lead.principal, boss.member.id, { username: "x1x" })),
          "role_exceeds_own"
        )
        assertForbidden(
          yield* Effect.flip(updateMember(lead.principal, pat.id, { roleId: boss.role.id })),
          "role_exceeds_own"
        )
        const reader = yield* actorWith("reader", ["team.read"])
        assertMissingPermission(
          yield* Effect.flip(updateMember(reader.principal, pat.id, {})),
          "team.members.write"
        )
        assertNotFound(
          yield* Effect.flip(updateMember(master, MemberId.make("nobody"), {})),
          "member",
          "nobody"
        )
        const unknown = yield* Effect.flip(updateMember(master, pat.id, { roleId: RoleId.make(99) }))
        assert.instanceOf(unknown, UnknownRole)
        assert.strictEqual(
          (yield* updateMember(lead.principal, pat.id, { roleId: lead.role.id })).roleId,
          lead.role.id
        )
        // Lead may deactivate themselves no more, but may rename themselves.
        assert.strictEqual(
          (yield* updateMember(lead.principal, lead.member.id, { username: "lead2" })).username,
          "lead2"
        )
      }).pipe(provideRoster())
  )

  it.effect("a member moved away meanwhile is an edit conflict, and the new role is not left counted", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const crew = yield* roleWith("crew", [])
      const ada = yield* addMember(master, memberInput("ada", staff.id))
      const members = yield* MemberStore
      // Another request moves Ada between this use case's read and its write.
      const moveAway = (id: MemberId) => members.update(id, staff.id, { roleId: crew.id }, true)
      const racing = {
        ...members,
        findById: (id: MemberId) => members.findById(id).pipe(Effect.tap(() => moveAway(id))),
        findWithMemberships: (id: MemberId) =>
          members.findWithMemberships(id).pipe(Effect.tap(() => moveAway(id)))
      }
      const error = yield* Effect.flip(
        updateMember(master, ada.id, {
          roleId: staff.id === crew.id ? staff.id : crew.id,
          username: "ada2"
        }).pipe(Effect.provideService(MemberStore, racing))
      )
      assert.instanceOf(error, EditConflict)
      assert.deepStrictEqual([error.entity, error.id], ["member", ada.id])
      // Ada is in crew without a count from this use case: moving her back frees crew for deletion.
      yield* members.update(ada.id, crew.id, { roleId: staff.id }, false)
      assert.isTrue(Option.isSome(yield* Effect.option(removeRole(master, crew.id))), "crew is free to go")
    }).pipe(provideRoster())
  )
})

describe("removeMember", () => {
  it.effect("removes the member, ends their sessions and frees their role", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", ["team.read"])
      assert.strictEqual((yield* removeMember(master, ada.member.id)).id, ada.member.id)
      assert.isFalse(yield* signedIn(ada.token))
      assertNotFound(yield* Effect.flip(removeMember(master, ada.member.id)), "member", ada.member.id)
      assert.strictEqual((yield* removeRole(master, ada.role.id)).id, ada.role.id)
    }).pipe(provideRoster())
  )

  it.effect("refuses removing oneself, someone more privileged, or without the permission", () =>
    Effect.gen(function* () {
      const lead = yield* actorWith("lead", ["team.read", "team.members.write"])
      const boss = yield* actorWith("boss", ["team.read", "team.members.write", "admin.accounts.write"])
      const reader = yield* actorWith("reader", ["team.read"])
      assertForbidden(yield* Effect.flip(removeMember(lead.principal, lead.member.id)), "self_action")
      assertForbidden(yield* Effect.flip(removeMember(lead.principal, boss.member.id)), "role_exceeds_own")
      assertMissingPermission(
        yield* Effect.flip(removeMember(reader.principal, lead.member.id)),
        "team.members.write"
      )
    }).pipe(provideRoster())
  )
})

describe("removeRole", () => {
  it.effect(
    "is refused while held, for an unknown role, for a role beyond one's own, or without the permission",
    () =>
      Effect.gen(function* () {
        const held = yield* actorWith("ada", ["team.read"])
        assert.instanceOf(yield* Effect.flip(removeRole(master, held.role.id)), RoleInUse)
        assertNotFound(yield* Effect.flip(removeRole(master, RoleId.make(99))), "role", "99")
        const writer = yield* actorWith("writer", ["team.read", "team.roles.write"])
        const mighty = yield* roleWith("mighty", ["admin.accounts.write"])
        assertForbidden(yield* Effect.flip(removeRole(writer.principal, mighty.id)), "role_exceeds_own")
        assertMissingPermission(yield* Effect.flip(removeRole(held.principal, mighty.id)), "team.roles.write")
        assert.strictEqual((yield* removeRole(master, mighty.id)).roleKey, "mighty")
      }).pipe(provideRoster())
  )
})
