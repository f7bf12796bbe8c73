// What the core assembles from checked parts (an audit entry, a role's view) is what the class's
// constructor makes of the same parts: same prototype, same own keys and values, equal, encoded
// alike.
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Equal, Schema } from "effect"
import {
  AuditEntry,
  AuditEntryId,
  OrganizationId,
  PermissionId,
  RoleId,
  RolePermissionDetailId,
  RoleView
} from "../../core/index.ts"
import { assembled } from "../../core/model/assembled.ts"

type Parts = ConstructorParameters<typeof AuditEntry>[0]
type RoleParts = ConstructorParameters<typeof RoleView>[0]

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

const roleShapes: ReadonlyArray<readonly [string, RoleParts]> = [
  [
    "never granted anything",
    {
      id: RoleId.make(1),
      name: "Bench",
      roleKey: "bench",
      activeStatus: true,
      createdAt: at,
      permissionIds: [],
      recordId: null
    }
  ],
  [
    "deactivated, holding permissions",
    {
      id: RoleId.make(2),
      name: "Ops",
      roleKey: "ops",
      activeStatus: false,
      createdAt: at,
      deactivatedAt: DateTime.makeUnsafe("2026-11-29T11:00:00.000Z"),
      permissionIds: [PermissionId.make(1), PermissionId.make(4)],
      recordId: RolePermissionDetailId.make(7)
    }
  ]
]

/** `made` is what the constructor makes of the same parts. */
const assertSameAs = <A extends object>(made: A, constructed: A, schema: Schema.Codec<A, unknown>) => {
  assert.strictEqual(Object.getPrototypeOf(made), Object.getPrototypeOf(constructed))
  assert.deepStrictEqual(Reflect.ownKeys(made), Reflect.ownKeys(constructed))
  for (const key of Reflect.ownKeys(constructed)) {
    assert.deepStrictEqual(Reflect.get(made, key), Reflect.get(constructed, key), `the field ${String(key)}`)
  }
  assert.isTrue(Equal.equals(made, constructed))
  assert.deepStrictEqual(Schema.encodeSync(schema)(made), Schema.encodeSync(schema)(constructed))
}

describe("an assembled instance", () => {
  for (const [shape, parts] of shapes) {
    it(`of an audit entry is the constructor's, ${shape}`, () => {
      const made = assembled(AuditEntry, parts)
      assert.isTrue(made instanceof AuditEntry)
      assertSameAs(made, new AuditEntry(parts), AuditEntry)
    })
  }

  for (const [shape, parts] of roleShapes) {
    it(`of a role's view is the constructor's, ${shape}`, () => {
      const made = assembled(RoleView, parts)
      assert.isTrue(made instanceof RoleView)
      assertSameAs(made, new RoleView(parts), RoleView)
    })
  }

  it("is a new instance each time, not the parts it was given", () => {
    const parts = shapes[0]?.[1] as Parts
    const first = assembled(AuditEntry, parts)
    assert.notStrictEqual(first, assembled(AuditEntry, parts))
    assert.notStrictEqual<object>(first, parts)
  })
})
