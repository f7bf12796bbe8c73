import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  CurrentOrganization,
  catalogPermissions,
  createApiKey,
  createOrganization,
  createScimToken,
  declarePermission,
  grantPermission,
  removePermission,
  retirePermission,
  revokeApiKey
} from "../../core/index.ts"
import { master, provideRoster, refusal, roleWith } from "../support/roster.ts"

/** What retiring `key` is refused with: the holders counted when in use, else the error's tag. */
const refusedWith = (key: string) =>
  Effect.map(refusal(retirePermission(master, key)), (error) =>
    error?._tag === "PermissionInUse" ? error.holders : error?._tag
  )

describe("retiring a product permission", () => {
  it.effect(
    "counts its explicit holders in every organisation, API keys in each, and retires it once none is left",
    () =>
      Effect.gen(function* () {
        const projects = yield* declarePermission(master, "projects.delete", "Delete projects")
        yield* declarePermission(master, "invoices.read", "Read invoices")
        const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
        const inAcme = Effect.provideService(CurrentOrganization, acme.id)
        const ours = yield* createApiKey(master, { name: "ci", permissions: [projects.id] })
        const theirs = yield* inAcme(
          createApiKey(master, { name: "ci", permissions: ["projects.delete", "team.read"] })
        )
        yield* inAcme(createApiKey(master, { name: "reads", permissions: ["invoices.read"] }))
        const devs = yield* roleWith("devs", [])
        const record = yield* grantPermission(master, { roleId: devs.id, permissionId: projects.id })
        // Made by the operator: every permission, a marker, is no explicit grant of this one.
        yield* createScimToken(master, { name: "IdP" })
        assert.deepStrictEqual(yield* refusedWith("projects.delete"), { roles: 1, apiKeys: 2, scimTokens: 0 })
        assert.isTrue(
          (yield* catalogPermissions).some((entry) => entry.id === projects.id),
          "declared again"
        )
        yield* revokeApiKey(master, ours.apiKey.id)
        yield* inAcme(revokeApiKey(master, theirs.apiKey.id))
        assert.deepStrictEqual(yield* refusedWith("projects.delete"), { roles: 1, apiKeys: 0, scimTokens: 0 })
        yield* removePermission(master, { id: record.id, permissionId: projects.id })
        const retired = yield* retirePermission(master, "projects.delete")
        assert.strictEqual(retired.id, projects.id)
        assert.isFalse((yield* catalogPermissions).some((entry) => entry.id === projects.id))
        assert.strictEqual(yield* refusedWith("projects.delete"), "NotFound")
      }).pipe(provideRoster())
  )
})
