import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  DuplicateEmail,
  DuplicateUsername,
  MemberId,
  MemberRecord,
  MemberStore,
  RoleId
} from "../../core/index.ts"
import { assertSingleWinner } from "../support/assertions.ts"
import { assertEquals, inParallel, memberRecord, valueOf } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const role1 = RoleId.make(1)
const role2 = RoleId.make(2)

describe.each(storeKinds)("MemberStore changes on %s", (_, stores) => {
  it.effect("updates the given fields only, while the member holds the expected role", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada", { sessionEpoch: 2 })
      yield* members.insert(ada)
      const renamed = valueOf(yield* members.update(ada.id, role1, { username: "Lovelace" }, false))
      assertEquals(renamed, new MemberRecord({ ...ada, username: "Lovelace" }))
      assertEquals(valueOf(yield* members.findByLogin("lovelace"), "found by the new name"), renamed)
      assert.isTrue(Option.isNone(yield* members.findByLogin("ada")), "the old name is free")

      const moved = valueOf(
        yield* members.update(ada.id, role1, { roleId: role2, activestatus: false }, true)
      )
      assertEquals(
        moved,
        new MemberRecord({ ...renamed, roleId: role2, activestatus: false, sessionEpoch: 3 })
      )
      assert.isTrue(
        Option.isNone(yield* members.update(ada.id, role1, { email: "x@example.com" }, false)),
        "no longer in role 1: nothing changes"
      )
      assertEquals(valueOf(yield* members.findById(ada.id)), moved)
      assertEquals(valueOf(yield* members.update(ada.id, role2, {}, false), "an empty change reads"), moved)
      assert.isTrue(Option.isNone(yield* members.update(MemberId.make("nobody"), role1, {}, false)))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("an update to a taken e-mail or username is refused and changes nothing", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada")
      const grace = memberRecord("grace")
      yield* members.insert(ada)
      yield* members.insert(grace)
      const email = yield* Effect.flip(members.update(grace.id, role1, { email: ada.email }, false))
      assert.instanceOf(email, DuplicateEmail)
      assert.strictEqual(email.email, ada.email)
      const name = yield* Effect.flip(members.update(grace.id, role1, { username: "ADA" }, true))
      assert.instanceOf(name, DuplicateUsername)
      assert.strictEqual(name.username, "ADA")
      assertEquals(valueOf(yield* members.findById(grace.id)), grace, "grace is unchanged")
      // A member keeps their own values when sending them again.
      const same = yield* members.update(grace.id, role1, { email: grace.email, username: "Grace" }, false)
      assert.strictEqual(valueOf(same).username, "Grace")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("parallel renames to one free username: exactly one wins", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      for (let i = 0; i < 6; i++) yield* members.insert(memberRecord(`user${i}`))
      const results = yield* inParallel(6, (i) =>
        Effect.result(members.update(MemberId.make(`member-user${i}`), role1, { username: "wanted" }, false))
      )
      assertSingleWinner(results, DuplicateUsername)
      const holders = (yield* members.page({}, 1000)).filter((member) => member.username === "wanted")
      assert.lengthOf(holders, 1)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("setting a password replaces the hash and increments the session epoch", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada", { sessionEpoch: 7 })
      yield* members.insert(ada)
      const changed = valueOf(yield* members.setPassword(ada.id, "$scrypt$new"))
      assertEquals(changed, new MemberRecord({ ...ada, passwordHash: "$scrypt$new", sessionEpoch: 8 }))
      assertEquals(valueOf(yield* members.findById(ada.id)), changed)
      assert.isTrue(Option.isNone(yield* members.setPassword(MemberId.make("nobody"), "$scrypt$x")))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("removing a member answers it once and frees its username and e-mail", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada")
      yield* members.insert(ada)
      assertEquals(valueOf(yield* members.remove(ada.id), "the removed member"), ada)
      assert.isTrue(Option.isNone(yield* members.remove(ada.id)))
      assert.isTrue(Option.isNone(yield* members.findByLogin("ada")))
      yield* members.insert(memberRecord("ada", { id: MemberId.make("member-ada-2") }))
      assert.lengthOf(yield* members.page({}, 1000), 1)
    }).pipe(Effect.provide(stores()))
  )
})
