import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  addMember,
  authenticate,
  authorize,
  declarePermission,
  ensureOwner,
  expandedPermissions,
  grantPermission,
  holdsEverything,
  listMembers,
  PermissionKey,
  permissionsOfRole,
  requireHeldWithinCeiling
} from "../../core/index.ts"
import {
  actorWith,
  failureOf,
  logInAs,
  master,
  memberInput,
  password,
  provideRoster,
  refusal,
  roleWith
} from "../support/roster.ts"

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
      const { principal, role: leads } = yield* actorWith("lead", [...PermissionKey.literals])
      const refused = failureOf(yield* Effect.exit(requireHeldWithinCeiling(principal, before)))
      assert.strictEqual((refused as { reason?: string }).reason, "role_exceeds_own")
      // Holding every one the Owner role stands for now, each by name: within it.
      yield* grantPermission(master, { roleId: leads.id, permissionId: declared.id })
      const lead = yield* authenticate(Option.some((yield* logInAs("lead")).token))
      assert.isUndefined(yield* refusal(requireHeldWithinCeiling(lead, before)))
    }).pipe(provideRoster())
  )
})

describe("asking about a product permission", () => {
  it.effect("answers the Owner, a role granted it by key, and one without it; lists the holders alike", () =>
    Effect.gen(function* () {
      const owner = yield* ensureOwner({
        username: "ada",
        email: "ada@example.com",
        password: Redacted.make(password)
      })
      yield* declarePermission(master, "projects.delete", "Delete projects")
      const devs = yield* roleWith("devs", [])
      yield* grantPermission(master, { roleId: devs.id, permissionId: "projects.delete" })
      const bob = yield* addMember(master, memberInput("bob", devs.id))
      const carol = yield* addMember(
        master,
        memberInput("carol", (yield* roleWith("payers", ["billing.read"])).id)
      )
      const { principal } = yield* actorWith("lead", ["team.read"])
      const asked = [owner.member.id, bob.id, carol.id].map((member) => ({
        permission: "projects.delete",
        member
      }))
      const answers = yield* authorize(principal, { checks: asked })
      assert.deepStrictEqual(
        answers.map((answer) => answer.reason),
        ["granted", "granted", "not_granted"]
      )
      const holders = yield* listMembers(principal, { permission: "projects.delete" })
      assert.deepStrictEqual(
        holders.items.map((member) => member.id).sort(),
        [owner.member.id, bob.id].sort()
      )
    }).pipe(provideRoster())
  )
})
