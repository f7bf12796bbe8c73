import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { DuplicateEmail, DuplicateUsername, MemberId, MemberStore } from "../../core/index.ts"
import { assertSingleWinner } from "../support/assertions.ts"
import {
  assertEquals,
  at,
  inParallel,
  memberRecord,
  valueOf,
  viewOf,
  withRoles
} from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const ids = (records: ReadonlyArray<{ readonly id: string }>) => records.map((record) => record.id)

describe.each(storeKinds)("MemberStore on %s", (_, stores) => {
  it.effect("finds an inserted member by id, and nothing under an unknown id", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("Ada", { createdAt: at(5), activestatus: false, sessionEpoch: 3 })
      yield* members.insert(ada)
      assertEquals(valueOf(yield* members.findById(ada.id), "Ada by id"), viewOf(ada))
      assert.isTrue(Option.isNone(yield* members.findById(MemberId.make("member-nobody"))))
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("counts the members whose membership and account are both active", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      assert.strictEqual(yield* members.countActive, 0)
      yield* members.insert(memberRecord("active1"))
      yield* members.insert(memberRecord("active2"))
      yield* members.insert(memberRecord("left", { activestatus: false }))
      const disabled = memberRecord("disabled")
      yield* members.insert(disabled)
      assert.strictEqual(yield* members.countActive, 4 - 1)
      yield* members.setAccountStatus(disabled.id, false)
      assert.strictEqual(yield* members.countActive, 2)
      yield* members.remove(MemberId.make("member-active1"))
      assert.strictEqual(yield* members.countActive, 1)
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("finds a member by username ignoring case and spaces, and by e-mail ignoring case", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("Ada", { email: "ada.lovelace@example.com" })
      yield* members.insert(ada)
      yield* members.insert(memberRecord("grace"))
      for (const login of [
        "Ada",
        "ada",
        "ADA",
        "  aDa ",
        "ada.lovelace@example.com",
        "Ada.Lovelace@EXAMPLE.com"
      ]) {
        const found = valueOf(yield* members.findByLogin(login), `a member for ${JSON.stringify(login)}`)
        assert.strictEqual(found.id, ada.id, `found by ${JSON.stringify(login)}`)
        // Stored as given: the key is for comparing only.
        assert.strictEqual(found.username, "Ada")
      }
      assert.isTrue(Option.isNone(yield* members.findByLogin("ad")))
      assert.isTrue(Option.isNone(yield* members.findByLogin("ada@example.com")))
      assert.isTrue(Option.isNone(yield* members.findByLogin("ada.lovelace@example.org")))
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("finds the accounts of several logins in one read, each once, as findByLogin finds them", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("Ada", { email: "ada.lovelace@example.com" })
      const grace = memberRecord("grace")
      yield* members.insert(ada)
      yield* members.insert(grace)
      yield* members.insert(memberRecord("linus"))
      const found = (logins: ReadonlyArray<string>) =>
        members.findByLogins(logins).pipe(Effect.map((accounts) => ids(accounts).sort()))
      assert.deepStrictEqual(yield* found(["ADA.Lovelace@example.com", " grace "]), [ada.id, grace.id])
      assert.deepStrictEqual(yield* found(["ada", "ada.lovelace@example.com"]), [ada.id], "one account, once")
      assert.deepStrictEqual(yield* found(["nobody@example.com", "nobody"]), [])
      const [account] = yield* members.findByLogins(["aDa"])
      assert.strictEqual(account?.username, "Ada")
      assert.strictEqual(account?.email, "ada.lovelace@example.com")
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("lists members oldest first, the id breaking ties", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      assert.deepStrictEqual(yield* members.page({}, 1000), [])
      const records = [
        memberRecord("carol", { createdAt: at(30) }),
        memberRecord("alice", { createdAt: at(10) }),
        memberRecord("dave", { id: MemberId.make("m-b"), createdAt: at(20) }),
        memberRecord("bob", { id: MemberId.make("m-a"), createdAt: at(20) })
      ]
      for (const record of records) yield* members.insert(record)
      const listed = yield* members.page({}, 1000)
      assert.deepStrictEqual(ids(listed), ["member-alice", "m-a", "m-b", "member-carol"])
      assertEquals(listed[0], records[1] && viewOf(records[1]), "the listed record is the stored one")
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("disabling an account increments its session epoch, enabling it does not", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada", { sessionEpoch: 4 })
      yield* members.insert(ada)

      const disabled = valueOf(yield* members.setAccountStatus(ada.id, false), "the disabled member")
      assert.isFalse(disabled.accountActiveStatus)
      assert.strictEqual(disabled.sessionEpoch, 5)
      assertEquals(valueOf(yield* members.findById(ada.id)), disabled, "the change is stored")

      const again = valueOf(yield* members.setAccountStatus(ada.id, false))
      assert.strictEqual(again.sessionEpoch, 6, "every disabling voids the sessions issued before it")

      const enabled = valueOf(yield* members.setAccountStatus(ada.id, true), "the enabled member")
      assert.isTrue(enabled.accountActiveStatus)
      assert.strictEqual(enabled.sessionEpoch, 6)
      assertEquals(valueOf(yield* members.findById(ada.id)), enabled, "the change is stored")
      // Nothing else about the member changed.
      assertEquals(enabled, viewOf(memberRecord("ada", { sessionEpoch: 6 })))
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("setting the account status of an unknown member is none and creates nothing", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const nobody = MemberId.make("member-nobody")
      assert.isTrue(Option.isNone(yield* members.setAccountStatus(nobody, false)))
      assert.isTrue(Option.isNone(yield* members.setAccountStatus(nobody, true)))
      assert.deepStrictEqual(yield* members.page({}, 1000), [])
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("a second member with a taken e-mail is DuplicateEmail and is not stored", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("ada")
      yield* members.insert(ada)
      const error = yield* Effect.flip(members.insert(memberRecord("grace", { email: ada.email })))
      assert.instanceOf(error, DuplicateEmail)
      assert.strictEqual(error.email, ada.email)
      assertEquals(yield* members.page({}, 1000), [viewOf(ada)])
      assert.isTrue(Option.isNone(yield* members.findById(MemberId.make("member-grace"))))
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("a username taken in any case is DuplicateUsername and is not stored", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const ada = memberRecord("Ada")
      yield* members.insert(ada)
      for (const username of ["Ada", "ada", "ADA"]) {
        const error = yield* Effect.flip(
          members.insert(
            memberRecord(username, { id: MemberId.make(`other-${username}`), email: "x@example.com" })
          )
        )
        assert.instanceOf(error, DuplicateUsername, `${username} is taken`)
        assert.strictEqual(error.username, username)
      }
      assertEquals(yield* members.page({}, 1000), [viewOf(ada)])
      // The e-mail of a refused member is still free.
      yield* members.insert(memberRecord("grace", { email: "x@example.com" }))
      assert.lengthOf(yield* members.page({}, 1000), 2)
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("10 parallel inserts of one e-mail: exactly one is stored, 9 are DuplicateEmail", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const results = yield* inParallel(10, (i) =>
        Effect.result(members.insert(memberRecord(`user${i}`, { email: "shared@example.com" })))
      )
      assertSingleWinner(results, DuplicateEmail)
      const listed = yield* members.page({}, 1000)
      assert.lengthOf(listed, 1)
      assert.strictEqual(listed[0]?.email, "shared@example.com")
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect(
    "10 parallel inserts of one username in different cases: one is stored, 9 are DuplicateUsername",
    () =>
      Effect.gen(function* () {
        const members = yield* MemberStore
        const spellings = ["ada", "Ada", "ADA", "aDa", "adA"]
        const results = yield* inParallel(10, (i) =>
          Effect.result(
            members.insert(
              memberRecord(spellings[i % spellings.length] ?? "ada", {
                id: MemberId.make(`member-${i}`),
                email: `ada${i}@example.com`
              })
            )
          )
        )
        assertSingleWinner(results, DuplicateUsername)
        assert.lengthOf(yield* members.page({}, 1000), 1)
      }).pipe(Effect.provide(withRoles(stores())))
  )
})
