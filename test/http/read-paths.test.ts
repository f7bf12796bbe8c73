import { describe, expect, it } from "vitest"
import { readPathOf } from "../../adapters/http/edge/route-table.ts"
import { AuditTarget } from "../../core/index.ts"

describe("where a retry reads what its first attempt changed", () => {
  it("is declared by an endpoint for every kind of target a write answers with", () => {
    const kinds = AuditTarget.fields.type.literals
    const unread = kinds.filter((type) => readPathOf(type, "the-id") === undefined)
    expect(unread, "a login answers with no record").toEqual(["login"])
    expect(readPathOf("webhook", "whk 1/2")).toBe("/api/v1/organization/webhooks/whk%201%2F2")
    expect(readPathOf("subscription", "sub_1")).toBe("/api/v1/pricing/subscription")
  })
})
