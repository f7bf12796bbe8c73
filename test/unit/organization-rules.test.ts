import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  actingOrganization,
  addMember,
  addRole,
  CurrentOrganization,
  createOrganization,
  deleteOrganization,
  type Forbidden,
  getOrganization,
  listProvisionedGroups,
  listProvisionedUsers,
  NotFound,
  OrganizationId,
  OrganizationStore,
  SubscriptionActive,
  subscribe
} from "../../core/index.ts"
import { actorWith, failureOf, master, memberInput, provideRoster, roleWith } from "../support/roster.ts"
import { openSubscriptions, team } from "../support/subscriptions.ts"

const acmeWith = Effect.gen(function* () {
  const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
  return { acme, inAcme: Effect.provideService(CurrentOrganization, acme.id) }
})

describe("the organisation a member acts on", () => {
  it.effect("is its own, named or not, by id or by slug", () =>
    Effect.gen(function* () {
      const { acme, inAcme } = yield* acmeWith
      const { principal } = yield* inAcme(actorWith("ada", ["team.read"]))
      assert.strictEqual(yield* actingOrganization(principal, undefined), acme.id)
      assert.strictEqual(yield* actingOrganization(principal, "acme"), acme.id)
      assert.strictEqual(yield* actingOrganization(principal, acme.id), acme.id)
      const other = failureOf(yield* Effect.exit(actingOrganization(principal, "default")))
      assert.strictEqual((other as Forbidden).reason, "other_organization")
    }).pipe(provideRoster())
  )

  it.effect("is read by who may read the team; one that is gone is NotFound", () =>
    Effect.gen(function* () {
      const { principal: nobody } = yield* actorWith("nobody", [])
      const refused = failureOf(yield* Effect.exit(getOrganization(nobody)))
      assert.strictEqual((refused as Forbidden).reason, "missing_permission")
      assert.strictEqual((refused as Forbidden).permission, "team.read")
      const gone = failureOf(
        yield* Effect.exit(
          getOrganization(master).pipe(
            Effect.provideService(CurrentOrganization, OrganizationId.make("org-gone"))
          )
        )
      )
      assert.instanceOf(gone, NotFound)
      assert.deepStrictEqual([(gone as NotFound).entity, (gone as NotFound).id], ["organization", "org-gone"])
    }).pipe(provideRoster())
  )
})

describe("deleting an organisation", () => {
  it.effect("is refused for the default one, and while a subscription is open, keeping everything", () =>
    Effect.gen(function* () {
      const refused = failureOf(yield* Effect.exit(deleteOrganization(master)))
      assert.strictEqual((refused as Forbidden).reason, "default_organization")
      const { acme, inAcme } = yield* acmeWith
      const pending = yield* inAcme(subscribe(master, team))
      const active = failureOf(yield* Effect.exit(inAcme(deleteOrganization(master))))
      assert.instanceOf(active, SubscriptionActive)
      assert.strictEqual((active as SubscriptionActive).subscriptionId, pending.id)
      assert.lengthOf(yield* inAcme(openSubscriptions), 1)
      assert.strictEqual((yield* inAcme(getOrganization(master))).id, acme.id)
    }).pipe(provideRoster())
  )

  it.effect("is NotFound when another request deleted it first", () =>
    Effect.gen(function* () {
      const { acme, inAcme } = yield* acmeWith
      const organizations = yield* OrganizationStore
      const late = yield* Effect.exit(
        inAcme(deleteOrganization(master)).pipe(
          Effect.provideService(OrganizationStore, {
            ...organizations,
            startDeleting: () => Effect.succeed(Option.none())
          })
        )
      )
      const error = failureOf(late)
      assert.instanceOf(error, NotFound)
      assert.deepStrictEqual([(error as NotFound).entity, (error as NotFound).id], ["organization", acme.id])
    }).pipe(provideRoster())
  )
})

describe("reading every member and role", () => {
  it.effect("reads past the first page of each, each once", () =>
    Effect.gen(function* () {
      const reader = yield* roleWith("reader", ["team.read"])
      for (let i = 0; i < 501; i++) yield* addMember(master, memberInput(`member-${i}`, reader.id))
      for (let i = 0; i < 500; i++) yield* addRole(master, { name: `r${i}`, roleKey: `r-${i}` })
      const users = yield* listProvisionedUsers(master)
      assert.strictEqual(new Set(users.map((user) => user.member.id)).size, 501)
      assert.lengthOf(users, 501)
      const groups = yield* listProvisionedGroups(master)
      assert.strictEqual(new Set(groups.map((group) => group.role.id)).size, 501)
      assert.lengthOf(groups, 501)
    }).pipe(provideRoster())
  )
})
