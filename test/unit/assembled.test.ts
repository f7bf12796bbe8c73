// An audit entry the core assembles from parts it has checked is the entry the class's constructor
// makes from the same parts: same prototype, same own keys and values, equal, encoded alike.
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Equal, Schema } from "effect"
import { AuditEntry, AuditEntryId, assembledAuditEntry, OrganizationId } from "../../core/index.ts"

type Parts = ConstructorParameters<typeof AuditEntry>[0]

const at = DateTime.makeUnsafe("2026-11-29T10:00:00.000Z")
const shapes: ReadonlyArray<readonly [string, Parts]> = [
  [
    "with no optional field",
    {
      id: AuditEntryId.make("aud_0001"),
      at,
      action: "role.updated",
      actor: { kind: "open" },
      target: { type: "role", id: "1" },
      changes: { name: ["Bench A", "Bench B"] }
    }
  ],
  [
    "with every optional field",
    {
      id: AuditEntryId.make("aud_0002"),
      at,
      action: "auth.login",
      actor: { kind: "member", id: "m-1" },
      target: { type: "member", id: "m-1" },
      changes: {},
      requestId: "req-1",
      method: "passkey",
      requestKey: "key-1",
      organizationId: OrganizationId.make("org-acme")
    }
  ],
  [
    "with changes to and from nothing",
    {
      id: AuditEntryId.make("aud_0003"),
      at,
      action: "role.added",
      actor: { kind: "api_key", id: "key_1" },
      target: { type: "role", id: "2" },
      changes: { name: [null, "Ops"], activeStatus: [null, true] },
      organizationId: OrganizationId.make("default")
    }
  ]
]

describe("an assembled audit entry", () => {
  for (const [shape, parts] of shapes) {
    it(`is the constructor's entry, ${shape}`, () => {
      const assembled = assembledAuditEntry(parts)
      const constructed = new AuditEntry(parts)
      assert.isTrue(assembled instanceof AuditEntry)
      assert.strictEqual(Object.getPrototypeOf(assembled), Object.getPrototypeOf(constructed))
      assert.deepStrictEqual(Reflect.ownKeys(assembled), Reflect.ownKeys(constructed))
      for (const key of Reflect.ownKeys(constructed)) {
        assert.deepStrictEqual(
          Reflect.get(assembled, key),
          Reflect.get(constructed, key),
          `the field ${String(key)}`
        )
      }
      assert.isTrue(Equal.equals(assembled, constructed))
      assert.deepStrictEqual(
        Schema.encodeSync(AuditEntry)(assembled),
        Schema.encodeSync(AuditEntry)(constructed)
      )
    })
  }

  it("is a new entry each time, not the parts it was given", () => {
    const parts = shapes[0]?.[1] as Parts
    const first = assembledAuditEntry(parts)
    assert.notStrictEqual(first, assembledAuditEntry(parts))
    assert.notStrictEqual<object>(first, parts)
  })
})
