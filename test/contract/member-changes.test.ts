import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AccountRecord,
  DuplicateEmail,
  DuplicateUsername,
  MemberId,
  MemberRecord,
  MemberStore,
  RoleId
} from "../../core/index.ts"
import { assertSingleWinner } from "../support/assertions.ts"
import {
  accountOf,
  assertEquals,
  inParallel,
  memberRecord,
  valueOf,
  viewOf,
  withRoles
} from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const role1 = RoleId.make(1)
const role2 = RoleId.make(2)

describe.each(storeKinds)("MemberStore changes on %s", (_, stores) => {
  it.effect("updates the membership's fields only, while the member holds the expected role", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada", { sessionEpoch: 2 })
      yield* members.insert(ada)
      const moved = valueOf(
        yield* members.update(ada.id, role1, { roleId: role2, activestatus: false }, true)
      )
      assertEquals(
        moved,
        new MemberRecord({ ...viewOf(ada), roleId: role2, activestatus: false, sessionEpoch: 3 })
      )
      assert.isTrue(
        Option.isNone(yield* members.update(ada.id, role1, { activestatus: true }, false)),
        "no longer in role 1: nothing changes"
      )
      assertEquals(valueOf(yield* members.findById(ada.id)), moved)
      assertEquals(valueOf(yield* members.update(ada.id, role2, {}, false), "an empty change reads"), moved)
      assert.isTrue(Option.isNone(yield* members.update(MemberId.make("nobody"), role1, {}, false)))
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("renames the account: found by the new name, the old one free, sessions untouched", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada", { sessionEpoch: 2 })
      yield* members.insert(ada)
      const renamed = valueOf(
        yield* members.updateAccount(ada.id, { username: "Lovelace", email: "lovelace@example.com" })
      )
      assertEquals(
        renamed,
        new MemberRecord({ ...viewOf(ada), username: "Lovelace", email: "lovelace@example.com" })
      )
      assertEquals(
        valueOf(yield* members.findByLogin("lovelace"), "found by the new name"),
        new AccountRecord({ ...accountOf(ada), username: "Lovelace", email: "lovelace@example.com" })
      )
      assert.isTrue(Option.isNone(yield* members.findByLogin("ada")), "the old name is free")
      assert.isTrue(Option.isNone(yield* members.findByLogin("ada@example.com")), "the old e-mail is free")
      assertEquals(valueOf(yield* members.findById(ada.id)), renamed)
      assert.isTrue(
        Option.isNone(yield* members.updateAccount(MemberId.make("nobody"), { username: "x-y-z" }))
      )
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("a change to a taken e-mail or username is refused and changes nothing", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada")
      const grace = memberRecord("grace")
      yield* members.insert(ada)
      yield* members.insert(grace)
      const email = yield* Effect.flip(members.updateAccount(grace.id, { email: ada.email }))
      assert.instanceOf(email, DuplicateEmail)
      assert.strictEqual(email.email, ada.email)
      const name = yield* Effect.flip(members.updateAccount(grace.id, { username: "ADA" }))
      assert.instanceOf(name, DuplicateUsername)
      assert.strictEqual(name.username, "ADA")
      assertEquals(valueOf(yield* members.findById(grace.id)), viewOf(grace), "grace is unchanged")
      assertEquals(valueOf(yield* members.findAccount(grace.id)), accountOf(grace))
      // A member keeps their own values when sending them again.
      const same = yield* members.updateAccount(grace.id, { email: grace.email, username: "Grace" })
      assert.strictEqual(valueOf(same).username, "Grace")
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("parallel renames to one free username: exactly one wins", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      for (let i = 0; i < 6; i++) yield* members.insert(memberRecord(`user${i}`))
      const results = yield* inParallel(6, (i) =>
        Effect.result(members.updateAccount(MemberId.make(`member-user${i}`), { username: "wanted" }))
      )
      assertSingleWinner(results, DuplicateUsername)
      const holders = (yield* members.page({}, 1000)).filter((member) => member.username === "wanted")
      assert.lengthOf(holders, 1)
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("setting a password replaces the hash and increments the session epoch", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada", { sessionEpoch: 7 })
      yield* members.insert(ada)
      const changed = valueOf(yield* members.setPassword(ada.id, "$scrypt$new"))
      assertEquals(changed, new MemberRecord({ ...viewOf(ada), sessionEpoch: 8 }))
      assertEquals(valueOf(yield* members.findById(ada.id)), changed)
      assertEquals(
        valueOf(yield* members.findAccount(ada.id)),
        new AccountRecord({ ...accountOf(ada), passwordHash: "$scrypt$new" })
      )
      assert.isTrue(Option.isNone(yield* members.setPassword(MemberId.make("nobody"), "$scrypt$x")))
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("removing a member answers it once and frees its username and e-mail", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada")
      yield* members.insert(ada)
      assertEquals(valueOf(yield* members.remove(ada.id), "the removed member"), viewOf(ada))
      assert.isTrue(
        Option.isNone(yield* members.findAccount(ada.id)),
        "its account went with its last membership"
      )
      assert.isTrue(Option.isNone(yield* members.remove(ada.id)))
      assert.isTrue(Option.isNone(yield* members.findByLogin("ada")))
      yield* members.insert(memberRecord("ada", { id: MemberId.make("member-ada-2") }))
      assert.lengthOf(yield* members.page({}, 1000), 1)
    }).pipe(Effect.provide(withRoles(stores())))
  )
})
