import { assert, describe, it } from "@effect/vitest"
import { Effect, Logger, Option } from "effect"
import { jsonLineLogger } from "../../adapters/log/json-line.ts"
import type { MemoryPaymentProvider } from "../../adapters/memory/index.ts"
import {
  addMember,
  CurrentOrganization,
  createOrganization,
  currentSubscription,
  defaultOrganizationId,
  deprovisionUser,
  inEveryOrganization,
  type MemberId,
  type Principal,
  provisionUser,
  removeMember,
  replaceProvisionedUser,
  ScimTokenId,
  type Subscription,
  scimTokenPermissions,
  setAccountStatus,
  subscribe,
  syncSeats,
  updateMember
} from "../../core/index.ts"
import { withProvider as withRecordingProvider } from "../support/billing-provider.ts"
import { apply, event } from "../support/payment-events.ts"
import { master, memberInput, provideRoster, roleWith, seatPlan, testPlans } from "../support/roster.ts"
import { seats } from "../support/subscriptions.ts"

const withProvider = <A, E, R>(body: (provider: MemoryPaymentProvider) => Effect.Effect<A, E, R>) =>
  withRecordingProvider(body, { plans: [...testPlans, seatPlan] })

/** The quantities the provider was told, in order. */
const quantities = (provider: MemoryPaymentProvider) =>
  provider
    .effects()
    .filter((call) => call.operation === "setSeats")
    .map((call) => call.quantity)

const seatsNow = Effect.map(currentSubscription(master), (subscription) => subscription.seats)

/** A role and `count` members in it, the first `inactive` of them with `activestatus: false`. */
const team = Effect.fnUntraced(function* (count: number, inactive = 0) {
  const role = yield* roleWith("crew", ["team.read"])
  const ids: Array<MemberId> = []
  for (let i = 0; i < count; i++) {
    const member = yield* addMember(master, memberInput(`crew${i}`, role.id, { activestatus: i >= inactive }))
    ids.push(member.id)
  }
  return { role, ids }
})

const activate = (pending: Subscription) =>
  apply(
    event("PaymentSucceeded", "evt_checkout", 10, {
      subscriptionId: pending.id,
      providerSubscriptionId: "sub_seats"
    })
  )

describe("a plan priced per seat", () => {
  it.effect("checks out as many seats as members can act, and at least one", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        yield* team(3, 1)
        const pending = yield* subscribe(master, seats)
        assert.strictEqual(pending.seats, 2)
        assert.deepStrictEqual(
          provider.effects().map((call) => [call.operation, call.providerPriceId, call.quantity]),
          [["openCheckout", "price_seats", 2]]
        )
      })
    )
  )

  it.effect("bills one seat when nobody can act yet", () =>
    withProvider(() =>
      Effect.gen(function* () {
        assert.strictEqual((yield* subscribe(master, seats)).seats, 1)
      })
    )
  )

  it.effect("follows members who are added, deactivated, disabled, reactivated and removed", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const { role, ids } = yield* team(2)
        yield* activate(yield* subscribe(master, seats))
        const added = yield* addMember(master, memberInput("late", role.id))
        assert.strictEqual(yield* seatsNow, 3)
        yield* updateMember(master, ids[0] as MemberId, { activestatus: false })
        assert.strictEqual(yield* seatsNow, 2)
        yield* setAccountStatus(master, { memberId: added.id, active: false })
        assert.strictEqual(yield* seatsNow, 1)
        yield* setAccountStatus(master, { memberId: added.id, active: true })
        yield* removeMember(master, ids[1] as MemberId)
        assert.deepStrictEqual(quantities(provider), [3, 2, 1, 2, 1])
        assert.strictEqual(yield* seatsNow, 1)
      })
    )
  )

  it.effect("follows what an identity provider does through SCIM: provisioning, deactivating, deleting", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        yield* team(1)
        yield* activate(yield* subscribe(master, seats))
        const scim: Principal = {
          _tag: "Scim",
          tokenId: ScimTokenId.make("scim-1"),
          organizationId: defaultOrganizationId,
          permissionIds: scimTokenPermissions(master)
        }
        const input = { userName: "idp@example.com", email: "idp@example.com" }
        const provisioned = yield* provisionUser(scim, input, Option.none())
        assert.strictEqual(yield* seatsNow, 2)
        yield* replaceProvisionedUser(scim, provisioned.id, { ...input, active: false }, Option.none())
        assert.strictEqual(yield* seatsNow, 1)
        yield* replaceProvisionedUser(scim, provisioned.id, { ...input, active: true }, Option.none())
        yield* deprovisionUser(scim, provisioned.id)
        assert.deepStrictEqual(quantities(provider), [2, 1, 2, 1])
        assert.strictEqual(yield* seatsNow, 1)
      })
    )
  )

  it.effect("calls the provider only when the count moves", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const { role, ids } = yield* team(2)
        yield* activate(yield* subscribe(master, seats))
        const callsBefore = provider.calls.length
        yield* updateMember(master, ids[0] as MemberId, { username: "renamed" })
        yield* addMember(master, memberInput("away", role.id, { activestatus: false }))
        yield* syncSeats
        assert.strictEqual(provider.calls.length, callsBefore)
        assert.strictEqual(yield* seatsNow, 2)
      })
    )
  )

  it.effect("keeps a member change when the provider fails, and catches up on the next sync", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const { role } = yield* team(1)
        yield* activate(yield* subscribe(master, seats))
        provider.unavailable = new Set(["setSeats"])
        const lines: Array<string> = []
        const added = yield* addMember(master, memberInput("newcomer", role.id)).pipe(
          Effect.provide(Logger.layer([jsonLineLogger((line) => lines.push(line))]))
        )
        assert.strictEqual(added.username, "newcomer")
        const warnings = lines.map((line) => JSON.parse(line)).filter((line) => line.level === "warn")
        assert.strictEqual(warnings.length, 1)
        assert.include(warnings[0].msg, "Seats not brought in step with the provider")
        assert.strictEqual(yield* seatsNow, 1)
        provider.unavailable = new Set()
        yield* syncSeats
        assert.strictEqual(yield* seatsNow, 2)
        assert.deepStrictEqual(quantities(provider), [2])
      })
    )
  )

  it.effect("catches up in every organisation, each with its own seats", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
        const inAcme = Effect.provideService(CurrentOrganization, acme.id)
        yield* team(1)
        yield* activate(yield* subscribe(master, seats))
        const crew = yield* inAcme(roleWith("acme-crew", ["team.read"]))
        for (const name of ["wile", "coyote"]) yield* inAcme(addMember(master, memberInput(name, crew.id)))
        const acmeSubscription = yield* inAcme(subscribe(master, seats))
        assert.strictEqual(acmeSubscription.seats, 2)
        // The event names the subscription only: the organisation is found through it.
        yield* apply(
          event("PaymentSucceeded", "evt_acme", 11, {
            subscriptionId: acmeSubscription.id,
            providerSubscriptionId: "sub_seats_acme"
          })
        )
        provider.unavailable = new Set(["setSeats"])
        yield* inAcme(addMember(master, memberInput("runner", crew.id)))
        yield* addMember(master, memberInput("ours", (yield* roleWith("ours", ["team.read"])).id))
        provider.unavailable = new Set()
        yield* inEveryOrganization(() => syncSeats)
        assert.strictEqual(yield* seatsNow, 2)
        assert.strictEqual((yield* inAcme(currentSubscription(master))).seats, 3)
      })
    )
  )

  it.effect("brings seats that changed between checkout and payment in step once it is paid", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const { role } = yield* team(1)
        const pending = yield* subscribe(master, seats)
        yield* addMember(master, memberInput("meanwhile", role.id))
        assert.deepStrictEqual(quantities(provider), [])
        yield* activate(pending)
        assert.strictEqual(yield* seatsNow, 2)
        assert.deepStrictEqual(quantities(provider), [2])
      })
    )
  )

  it.effect("counts seats here only when there is no provider", () =>
    Effect.gen(function* () {
      const { role } = yield* team(1)
      yield* activate(yield* subscribe(master, seats))
      yield* addMember(master, memberInput("another", role.id))
      assert.strictEqual(yield* seatsNow, 2)
    }).pipe(provideRoster({ plans: [...testPlans, seatPlan] }))
  )
})

describe("a plan not priced per seat", () => {
  it.effect("has no seats and asks the provider nothing when members change", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, { planId: "team", planName: "Team", price: 19.99 })
        yield* activate(pending)
        yield* team(2)
        assert.isUndefined(yield* seatsNow)
        assert.deepStrictEqual(quantities(provider), [])
      })
    )
  )
})
