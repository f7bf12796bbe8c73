import { describe, expect, it } from "vitest"
import { auditColumns } from "../../adapters/memory/audit-columns.ts"

const fields = (i: number) => ({
  organizationId: `org-${i % 3}`,
  action: i % 2 === 0 ? "role.updated" : "member.added",
  actorKind: "member",
  actorId: i % 5 === 0 ? undefined : `actor-${i % 7}`,
  targetType: "role",
  targetId: String(i % 11)
})

describe("the in-memory audit trail's columns", () => {
  it("give back every entry's time, fields and text as appended, across chunks of entries and blocks of text", () => {
    const columns = auditColumns()
    const count = 30_000
    // ~70 bytes each: the text fills more than two blocks of a megabyte, with non-ASCII in it.
    const textOf = (i: number) => `["aud_${i}",{"name":["Bench A","Bench B é ${i}"]},"req-${i}",null]`
    for (let i = 0; i < count; i++) expect(columns.append(1_000 + i, fields(i), textOf(i))).toBe(i)
    const huge = "x".repeat(3 << 20)
    expect(columns.append(5, fields(0), huge)).toBe(count)
    expect(columns.size).toBe(count + 1)
    // Chunks hold 4,096 entries: the ends of the first two are read.
    for (const i of [0, 1, 4_095, 4_096, 8_191, 8_192, 14_999, 15_000, 29_999]) {
      expect(columns.at(i)).toBe(1_000 + i)
      expect(columns.textAt(i)).toBe(textOf(i))
      for (const [field, value] of Object.entries(fields(i))) {
        expect(columns.valueAt(i, field as keyof ReturnType<typeof fields>)).toBe(value)
      }
    }
    expect(columns.textAt(count)).toBe(huge)
    expect(columns.indexAt(7, "actorId")).toBe(columns.find("actorId", "actor-0"))
    expect(columns.indexAt(5, "actorId")).toBe(0)
    expect(columns.find("targetId", "never seen")).toBe(-1)
  })
})
