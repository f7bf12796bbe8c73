import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  addMember,
  DuplicateUsername,
  type Principal,
  type Role,
  RoleInUse,
  removeRole,
  SessionStore,
  setAccountStatus,
  updateMember
} from "../../core/index.ts"
import { actorWith, master, memberInput, provideRoster, roleWith } from "../support/roster.ts"

/** Whether the role can be deleted now: false while some member holds it. */
const removable = (role: Role) =>
  removeRole(master, role.id).pipe(
    Effect.as(true),
    Effect.catchTag("RoleInUse", () => Effect.succeed(false))
  )

/** Whether the session store still holds the principal's session, void or not. */
const stored = (principal: Principal) =>
  principal._tag === "Member"
    ? Effect.flatMap(SessionStore, (sessions) => sessions.find(principal.sessionTokenHash)).pipe(
        Effect.map(Option.isSome)
      )
    : assert.fail("only a member has a session")

describe("a member's role, as counted for its deletion", () => {
  it.effect("a move frees the old role and holds the new one", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const crew = yield* roleWith("crew", [])
      const pat = yield* addMember(master, memberInput("pat", staff.id))
      yield* updateMember(master, pat.id, { roleId: crew.id })
      assert.isFalse(yield* removable(crew), "crew is held")
      assert.isTrue(yield* removable(staff), "staff is free")
    }).pipe(provideRoster())
  )

  it.effect("a change that moves nobody leaves the role held", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const pat = yield* addMember(master, memberInput("pat", staff.id))
      yield* updateMember(master, pat.id, { username: "patricia" })
      yield* updateMember(master, pat.id, { roleId: staff.id })
      const held = yield* Effect.flip(removeRole(master, staff.id))
      assert.instanceOf(held, RoleInUse)
      assert.strictEqual(held.roleId, staff.id)
    }).pipe(provideRoster())
  )

  it.effect("a move the store refuses leaves both roles counted as they were", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const crew = yield* roleWith("crew", [])
      const pat = yield* addMember(master, memberInput("pat", staff.id))
      const bob = yield* addMember(master, memberInput("bob", crew.id))
      const refused = yield* Effect.flip(updateMember(master, pat.id, { roleId: crew.id, username: "bob" }))
      assert.instanceOf(refused, DuplicateUsername)
      assert.strictEqual(refused.username, "bob")
      yield* updateMember(master, bob.id, { roleId: staff.id })
      assert.isTrue(yield* removable(crew), "the refused move left no count on crew")
      assert.isFalse(yield* removable(staff), "pat still holds staff")
    }).pipe(provideRoster())
  )
})

describe("sessions a change ends", () => {
  it.effect("are deleted from the store when a member is moved or deactivated, kept otherwise", () =>
    Effect.gen(function* () {
      const other = yield* roleWith("other", [])
      const moved = yield* actorWith("moved", [])
      yield* updateMember(master, moved.member.id, { roleId: other.id })
      assert.isFalse(yield* stored(moved.principal), "moved")
      const deactivated = yield* actorWith("deactivated", [])
      yield* updateMember(master, deactivated.member.id, { activestatus: false })
      assert.isFalse(yield* stored(deactivated.principal), "deactivated")
      const renamed = yield* actorWith("renamed", [])
      yield* updateMember(master, renamed.member.id, { username: "renamed2", activestatus: true })
      assert.isTrue(yield* stored(renamed.principal), "renamed")
    }).pipe(provideRoster())
  )

  it.effect("are kept when an account is enabled, deleted when it is disabled", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      yield* setAccountStatus(master, { memberId: ada.member.id, active: true })
      assert.isTrue(yield* stored(ada.principal), "enabled")
      yield* setAccountStatus(master, { memberId: ada.member.id, active: false })
      assert.isFalse(yield* stored(ada.principal), "disabled")
    }).pipe(provideRoster())
  )

  it.effect("a member may deactivate another member, only not themselves", () =>
    Effect.gen(function* () {
      const lead = yield* actorWith("lead", ["team.members.write"])
      const staff = yield* roleWith("staff", [])
      const pat = yield* addMember(master, memberInput("pat", staff.id))
      const updated = yield* updateMember(lead.principal, pat.id, { activestatus: false })
      assert.isFalse(updated.activestatus)
    }).pipe(provideRoster())
  )
})
