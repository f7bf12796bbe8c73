import { assert, describe, it } from "@effect/vitest"
import { DateTime, Option, Schema } from "effect"
import {
  AuditAction,
  AuditCursor,
  AuditFilter,
  changesBetween,
  MemberCursor,
  MemberFilter,
  MemberId,
  memberAuditFields,
  memberPositionOf,
  PageLimit,
  pageOf,
  RoleCursor,
  RoleId,
  roleAuditFields
} from "../../core/index.ts"

const decodes = <S extends Schema.Codec<unknown, unknown>>(schema: S, value: unknown) =>
  Option.isSome(Schema.decodeUnknownOption(schema)(value))

describe("changesBetween", () => {
  it("lists the fields that differ as [before, after], null for an absent side or value", () => {
    const before = { name: "Staff", roleKey: "staff", activeStatus: true, extra: 1 }
    assert.deepStrictEqual(changesBetween(before, { ...before, name: "Crew", extra: 2 }, roleAuditFields), {
      name: ["Staff", "Crew"]
    })
    assert.deepStrictEqual(changesBetween(null, before, ["name", "missing"]), { name: [null, "Staff"] })
    assert.deepStrictEqual(changesBetween(before, null, ["activeStatus"]), { activeStatus: [true, null] })
    assert.deepStrictEqual(changesBetween(before, { ...before }, roleAuditFields), {})
    assert.deepStrictEqual(changesBetween({ ids: [1, 2] }, { ids: [1, 2] }, ["ids"]), {}, "compared as JSON")
    assert.deepStrictEqual(changesBetween({ flag: false }, { flag: null }, ["flag"]), { flag: [false, null] })
  })

  it("records what a reader cares for and never a credential", () => {
    assert.deepStrictEqual(roleAuditFields, ["name", "roleKey", "activeStatus"])
    assert.deepStrictEqual(memberAuditFields, [
      "username",
      "email",
      "emailVerified",
      "activestatus",
      "accountActiveStatus",
      "roleId"
    ])
  })
})

describe("pageOf", () => {
  const positionOf = (n: number) => n * 10
  it("shows at most `limit` items and points after the last one only while more remain", () => {
    assert.deepStrictEqual(pageOf([1, 2, 3], 3, positionOf), { items: [1, 2, 3], next: Option.none() })
    assert.deepStrictEqual(pageOf([1, 2, 3, 4], 3, positionOf), { items: [1, 2, 3], next: Option.some(30) })
    assert.deepStrictEqual(pageOf([], 1, positionOf), { items: [], next: Option.none() })
    assert.deepStrictEqual(pageOf([1, 2], 1, positionOf), { items: [1], next: Option.some(10) })
  })

  it("takes limits from 1 to 200 only", () => {
    for (const limit of [1, 50, 200]) assert.isTrue(decodes(PageLimit, limit), String(limit))
    for (const limit of [0, 201, 1.5, -1]) assert.isFalse(decodes(PageLimit, limit), String(limit))
  })
})

describe("cursors", () => {
  const at = DateTime.makeUnsafe(1_700_000_000_123)
  it("round-trip a position through an opaque base64url string", () => {
    const member = { createdAt: at, id: MemberId.make("m-1") }
    const cursor = Schema.encodeSync(MemberCursor)(memberPositionOf(member))
    assert.match(cursor, /^[A-Za-z0-9_-]+$/u)
    assert.deepStrictEqual(Schema.decodeSync(MemberCursor)(cursor), member)
    const role = Schema.encodeSync(RoleCursor)({ id: RoleId.make(7) })
    assert.deepStrictEqual(Schema.decodeSync(RoleCursor)(role), { id: 7 })
    const audit = Schema.encodeSync(AuditCursor)({ at, id: "aud_1" as never })
    assert.strictEqual(Schema.decodeSync(AuditCursor)(audit).id, "aud_1")
  })

  it("refuse what they did not make, and one kind's cursor for another", () => {
    const role = Schema.encodeSync(RoleCursor)({ id: RoleId.make(7) })
    for (const bad of ["", "!!", btoa("[]"), role]) assert.isFalse(decodes(MemberCursor, bad), bad)
    assert.isFalse(
      decodes(RoleCursor, Schema.encodeSync(MemberCursor)({ createdAt: at, id: MemberId.make("m") }))
    )
  })
})

describe("filters", () => {
  it("accept known actions and displayable text only", () => {
    assert.isTrue(decodes(AuditAction, "member.added"))
    assert.isFalse(decodes(AuditAction, "member.eaten"))
    assert.isTrue(decodes(AuditFilter, { actorId: "m-1", targetId: "7" }))
    assert.isFalse(decodes(AuditFilter, { actorId: "" }))
    assert.isFalse(decodes(AuditFilter, { targetId: "a\u0000b" }))
    assert.isTrue(decodes(MemberFilter, { q: "ada", active: true, roleId: 2 }))
    assert.isFalse(decodes(MemberFilter, { q: "" }))
    assert.isFalse(decodes(MemberFilter, { q: "x".repeat(255) }))
  })
})
