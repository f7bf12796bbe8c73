import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  actingOrganization,
  CurrentOrganization,
  createOrganization,
  defaultOrganizationId,
  Forbidden,
  identifyCaller,
  listMembers,
  listRoles,
  NotFound,
  OrganizationId
} from "../../core/index.ts"
import { actorWith, failureOf, master, masterKey, provideRoster } from "../support/roster.ts"

describe("the organisation a use case acts on", () => {
  it.effect(
    "the operator acts on the one it names, the default one without a name; an unknown name is not found",
    () =>
      Effect.gen(function* () {
        const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
        assert.strictEqual(yield* actingOrganization(master, undefined), defaultOrganizationId)
        assert.strictEqual(yield* actingOrganization(master, "acme"), acme.id)
        assert.strictEqual(yield* actingOrganization(master, acme.id), acme.id)
        assert.instanceOf(failureOf(yield* Effect.exit(actingOrganization(master, "nowhere"))), NotFound)
        const caller = yield* identifyCaller(Option.some(Redacted.make(masterKey)), "acme")
        assert.deepStrictEqual(caller, { principal: master, organizationId: acme.id })
      }).pipe(provideRoster())
  )

  it.effect(
    "a member acts on its own only: naming another is forbidden, and so is a use case run in another",
    () =>
      Effect.gen(function* () {
        const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
        const { principal } = yield* actorWith("ada", ["team.read"])
        assert.strictEqual(yield* actingOrganization(principal, "default"), defaultOrganizationId)
        assert.instanceOf(failureOf(yield* Effect.exit(actingOrganization(principal, "acme"))), Forbidden)
        assert.instanceOf(failureOf(yield* Effect.exit(actingOrganization(principal, "nowhere"))), Forbidden)
        // An embedding that runs a member's use case in another organisation is refused, not obeyed.
        for (const elsewhere of [acme.id, OrganizationId.make("org-unknown")]) {
          const listed = yield* Effect.exit(
            listMembers(principal).pipe(Effect.provideService(CurrentOrganization, elsewhere))
          )
          const error = failureOf(listed)
          assert.instanceOf(error, Forbidden)
          assert.strictEqual((error as Forbidden).reason, "other_organization")
        }
        assert.lengthOf((yield* listRoles(principal)).items, 1)
      }).pipe(provideRoster())
  )
})
