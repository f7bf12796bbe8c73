import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import {
  declarePermission,
  everyPermission,
  isRosterPermission,
  namespaceOf,
  PermissionId,
  ProductPermissionKey,
  ProductPermissionStore,
  permissionIdOf,
  resolvePermission
} from "../../core/index.ts"
import { master, provideRoster } from "../support/roster.ts"

const accepted = (key: string) => Option.isSome(Schema.decodeUnknownOption(ProductPermissionKey)(key))

describe("a product permission's key", () => {
  it("is 3–100 of [a-z0-9_.:-], starting with a letter, holding a . or a :", () => {
    for (const key of ["projects.delete", "invoices:read", "a.b", "x_1-2.y", `p.${"q".repeat(98)}`])
      assert.isTrue(accepted(key), key)
    for (const key of [
      "ab",
      "projects",
      "Projects.delete",
      "1projects.x",
      "_a.b",
      "a b.c",
      `p.${"q".repeat(99)}`
    ])
      assert.isFalse(accepted(key), key)
  })

  it("is in none of Roster's namespaces, its first segment compared whole", () => {
    for (const key of ["team.custom", "organization:x", "billing.extra", "admin.x", "audit:y", "roster.z"])
      assert.throws(
        () => Schema.decodeUnknownSync(ProductPermissionKey)(key),
        "Expected a key outside Roster's own namespaces (team, organization, billing, admin, audit, roster)"
      )
    for (const key of ["teams.x", "teamx:y", "audits.read", "projects.team", "a.roster"])
      assert.isTrue(accepted(key), key)
    assert.strictEqual(namespaceOf("billing:refunds.read"), "billing")
    assert.strictEqual(namespaceOf("projects.delete:all"), "projects")
  })
})

describe("resolving a permission", () => {
  it.effect("by the product's id or key while declared; ids below 1000 or unsafe are never read", () =>
    Effect.gen(function* () {
      const declared = yield* declarePermission(master, "projects.delete", "")
      const byId = yield* resolvePermission(PermissionId.make(1000))
      const byKey = yield* resolvePermission("projects.delete")
      assert.deepStrictEqual(
        Option.map(byId, ({ key, kind }) => ({ key, kind })),
        Option.some({ key: "projects.delete", kind: "product" as const })
      )
      assert.deepStrictEqual(
        Option.map(byKey, ({ id }) => id),
        Option.some(declared.id)
      )
      assert.deepStrictEqual(
        Option.map(yield* resolvePermission(PermissionId.make(1)), ({ key }) => key),
        Option.some("team.read")
      )
      let reads = 0
      const counting = Effect.updateService(ProductPermissionStore, (store) => ({
        ...store,
        findById: (id) =>
          Effect.suspend(() => {
            reads++
            return store.findById(id)
          })
      }))
      for (const id of [999, 500, 2 ** 53, 1000.5, 1001])
        assert.isTrue(Option.isNone(yield* resolvePermission(id as PermissionId).pipe(counting)), String(id))
      assert.strictEqual(reads, 1, "only 1001 was looked up")
      assert.isTrue(Option.isNone(yield* resolvePermission("projects.create")))
    }).pipe(provideRoster())
  )

  it("tells Roster's own ids and the marker from the product's", () => {
    assert.isTrue(isRosterPermission(permissionIdOf("team.read")))
    assert.isTrue(isRosterPermission(permissionIdOf("organization.write")))
    assert.isTrue(isRosterPermission(everyPermission))
    assert.isFalse(isRosterPermission(PermissionId.make(1000)))
    assert.isFalse(isRosterPermission(PermissionId.make(999)))
  })
})
