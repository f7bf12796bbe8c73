import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { addMember, addRole, listAuditEvents, listMembers, listRoles } from "../../core/index.ts"
import { master, memberInput, provideRoster } from "../support/roster.ts"

/** The position a page says the next one starts after; fails the test on the last page. */
const nextOf = <P>(page: { readonly next: Option.Option<P> }) =>
  Option.getOrElse(page.next, () => assert.fail("expected a next page"))

describe("pages of a list", () => {
  it.effect("roles: `limit` of them, then the next page after the last one shown", () =>
    Effect.gen(function* () {
      for (const key of ["one", "two", "three"]) yield* addRole(master, { name: key, roleKey: key })
      const first = yield* listRoles(master, { limit: 2 })
      assert.deepStrictEqual(
        first.items.map((role) => role.roleKey),
        ["one", "two"]
      )
      assert.deepStrictEqual(nextOf(first), { id: first.items[1]?.id })
      const second = yield* listRoles(master, { limit: 2, after: nextOf(first) })
      assert.deepStrictEqual(
        second.items.map((role) => role.roleKey),
        ["three"]
      )
      assert.isTrue(Option.isNone(second.next))
    }).pipe(provideRoster())
  )

  it.effect("members: `limit` of them, oldest first, then the next page after the last one shown", () =>
    Effect.gen(function* () {
      const role = yield* addRole(master, { name: "Staff", roleKey: "staff" })
      const added = []
      for (const username of ["ada", "bob", "cyd"]) {
        added.push(yield* addMember(master, memberInput(username, role.id)))
        yield* TestClock.adjust("1 second")
      }
      const first = yield* listMembers(master, { limit: 2 })
      assert.deepStrictEqual(
        first.items.map((member) => member.username),
        ["ada", "bob"]
      )
      assert.deepStrictEqual(nextOf(first), { createdAt: added[1]?.createdAt, id: added[1]?.id })
      const second = yield* listMembers(master, { limit: 2, after: nextOf(first) })
      assert.deepStrictEqual(
        second.items.map((member) => member.username),
        ["cyd"]
      )
      assert.isTrue(Option.isNone(second.next))
    }).pipe(provideRoster())
  )

  it.effect("audit events: `limit` of them, newest first, then the next page after the last one shown", () =>
    Effect.gen(function* () {
      for (const key of ["one", "two", "three"]) {
        yield* addRole(master, { name: key, roleKey: key })
        yield* TestClock.adjust("1 second")
      }
      const first = yield* listAuditEvents(master, { limit: 2 })
      assert.deepStrictEqual(
        first.items.map((entry) => entry.changes.roleKey?.[1]),
        ["three", "two"]
      )
      assert.deepStrictEqual(nextOf(first), { at: first.items[1]?.at, id: first.items[1]?.id })
      const second = yield* listAuditEvents(master, { limit: 2, after: nextOf(first) })
      assert.deepStrictEqual(
        second.items.map((entry) => entry.changes.roleKey?.[1]),
        ["one"]
      )
      assert.isTrue(Option.isNone(second.next))
    }).pipe(provideRoster())
  )
})
