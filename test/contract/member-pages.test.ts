import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { MemberId, MemberStore, RoleId, RoleStore } from "../../core/index.ts"
import { at, memberRecord, newRole, withRoles } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const ids = (records: ReadonlyArray<{ readonly id: string | number }>) => records.map((record) => record.id)

const seed = Effect.gen(function* () {
  const members = yield* MemberStore
  const records = [
    memberRecord("carol", { createdAt: at(30), roleId: RoleId.make(2), email: "c.x@example.org" }),
    memberRecord("alice", { createdAt: at(10), activestatus: false }),
    memberRecord("dave", { id: MemberId.make("m-b"), createdAt: at(20), accountActiveStatus: false }),
    memberRecord("Bob", { id: MemberId.make("m-a"), createdAt: at(20), roleId: RoleId.make(2) }),
    memberRecord("a.b", { createdAt: at(40), email: "axb@example.com" })
  ]
  for (const record of records) yield* members.insert(record)
  return members
})

describe.each(storeKinds)("pages of members on %s", (_, stores) => {
  it.effect("pages oldest first from a position, the id breaking ties, at most `limit`", () =>
    Effect.gen(function* () {
      const members = yield* seed
      assert.deepStrictEqual(ids(yield* members.page({}, 10)), [
        "member-alice",
        "m-a",
        "m-b",
        "member-carol",
        "member-a.b"
      ])
      assert.deepStrictEqual(ids(yield* members.page({}, 2)), ["member-alice", "m-a"])
      const afterTie = yield* members.page({ after: { createdAt: at(20), id: MemberId.make("m-a") } }, 10)
      assert.deepStrictEqual(ids(afterTie), ["m-b", "member-carol", "member-a.b"])
      // A position need not be a member's: a removed one's still orders.
      const afterGap = yield* members.page({ after: { createdAt: at(25), id: MemberId.make("zzz") } }, 10)
      assert.deepStrictEqual(ids(afterGap), ["member-carol", "member-a.b"])
      assert.deepStrictEqual(
        yield* members.page({ after: { createdAt: at(40), id: MemberId.make("member-a.b") } }, 10),
        []
      )
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("filters by role, by whether members can act, and by a prefix of username or e-mail", () =>
    Effect.gen(function* () {
      const members = yield* seed
      assert.deepStrictEqual(ids(yield* members.page({ roleId: RoleId.make(2) }, 10)), [
        "m-a",
        "member-carol"
      ])
      assert.deepStrictEqual(ids(yield* members.page({ active: true }, 10)), [
        "m-a",
        "member-carol",
        "member-a.b"
      ])
      assert.deepStrictEqual(ids(yield* members.page({ active: false }, 10)), ["member-alice", "m-b"])
      assert.deepStrictEqual(ids(yield* members.page({ q: "BO" }, 10)), ["m-a"], "usernames ignore case")
      assert.deepStrictEqual(
        ids(yield* members.page({ q: "c.x@" }, 10)),
        ["member-carol"],
        "e-mails match too"
      )
      assert.deepStrictEqual(ids(yield* members.page({ q: "a.b" }, 10)), ["member-a.b"], "'.' is no wildcard")
      assert.deepStrictEqual(ids(yield* members.page({ q: "lice" }, 10)), [], "a prefix, not a substring")
      assert.deepStrictEqual(ids(yield* members.page({ q: "(" }, 10)), [])
      const combined = yield* members.page(
        {
          roleId: RoleId.make(2),
          active: true,
          q: "c",
          after: { createdAt: at(20), id: MemberId.make("m-a") }
        },
        10
      )
      assert.deepStrictEqual(ids(combined), ["member-carol"])
    }).pipe(Effect.provide(withRoles(stores())))
  )
})

describe.each(storeKinds)("pages of roles on %s", (_, stores) => {
  it.effect("pages by id from a position", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      for (const key of ["a", "b", "c", "d"]) yield* roles.insert(newRole(key))
      assert.deepStrictEqual(ids(yield* roles.page(undefined, 3)), [1, 2, 3])
      assert.deepStrictEqual(ids(yield* roles.page(RoleId.make(2), 3)), [3, 4])
      yield* roles.remove(RoleId.make(3))
      assert.deepStrictEqual(ids(yield* roles.page(RoleId.make(2), 3)), [4])
      assert.deepStrictEqual(yield* roles.page(RoleId.make(4), 3), [])
    }).pipe(Effect.provide(stores()))
  )
})
