import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import {
  declarePermission,
  ensureOwner,
  expandedPermissions,
  holdsEverything,
  PermissionKey,
  permissionsOfRole,
  requireHeldWithinCeiling
} from "../../core/index.ts"
import { actorWith, failureOf, master, password, provideRoster } from "../support/roster.ts"

describe("the Owner role and product permissions", () => {
  it.effect("holds one declared after it was made, and owners stay decided by Roster's permissions", () =>
    Effect.gen(function* () {
      const { roleId } = yield* ensureOwner({
        username: "ada",
        email: "ada@example.com",
        password: Redacted.make(password)
      })
      const before = yield* permissionsOfRole(roleId)
      const declared = yield* declarePermission(master, "projects.delete", "Delete projects")
      assert.isTrue((yield* expandedPermissions(yield* permissionsOfRole(roleId))).has(declared.id))
      assert.deepStrictEqual(yield* permissionsOfRole(roleId), before)
      assert.isTrue(holdsEverything(before))
      // Holding all of Roster's permissions but not the product's: the Owner role is above this caller now.
      const { principal } = yield* actorWith("lead", [...PermissionKey.literals])
      const refused = failureOf(yield* Effect.exit(requireHeldWithinCeiling(principal, before)))
      assert.strictEqual((refused as { reason?: string }).reason, "role_exceeds_own")
    }).pipe(provideRoster())
  )
})
