import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { makeMemoryPaymentProvider } from "../../adapters/memory/index.ts"
import {
  AuditLog,
  addMember,
  Checkout,
  cancelSubscription,
  canTransition,
  currentSubscription,
  isInForce,
  Money,
  Plan,
  PlanId,
  SubscriptionId,
  SubscriptionStore,
  subscribe,
  syncSeats
} from "../../core/index.ts"
import { isSupersededBy, retire } from "../../core/steps/billing/supersede.ts"
import { operations, paid, withProvider } from "../support/billing-provider.ts"
import { subscriptionOf } from "../support/contract.ts"
import { apply, event } from "../support/payment-events.ts"
import { master, memberInput, provideRoster, roleWith, seatPlan, testPlans } from "../support/roster.ts"
import { business, loadSubscription, statusOf, team } from "../support/subscriptions.ts"

const callsOf = (provider: ReturnType<typeof makeMemoryPaymentProvider>, operation: string) =>
  provider.calls.filter((call) => call.operation === operation)

describe("the subscription lifecycle", () => {
  it("lets a canceling subscription end or resume, and nothing else", () => {
    assert.isTrue(canTransition("canceling", "canceled"))
    assert.isTrue(canTransition("canceling", "active"))
    assert.isFalse(canTransition("canceling", "past_due"))
    assert.isTrue(canTransition("active", "canceling"))
    assert.isTrue(canTransition("past_due", "canceling"))
    assert.isFalse(canTransition("pending", "canceling"))
  })

  it("counts a canceling subscription as live until it ends", () => {
    assert.isTrue(isInForce(subscriptionOf("sub_ending", 1, "canceling")))
    assert.isFalse(isInForce(subscriptionOf("sub_over", 1, "canceled")))
  })

  it("keeps a checkout only with its id and its address", () => {
    assert.throws(() => Schema.decodeUnknownSync(Checkout)({ url: "https://checkout.example/x" }))
    assert.throws(() => Schema.decodeUnknownSync(Checkout)({ id: "cs_1" }))
  })
})

describe("the provider's events on a subscription canceled here", () => {
  const canceledAfterPayment = Effect.gen(function* () {
    const older = yield* subscribe(master, team)
    yield* TestClock.adjust("1 second")
    yield* subscribe(master, business)
    assert.strictEqual(yield* statusOf(older.id), "canceled")
    return older
  })

  it.effect("a failed payment of it asks the provider nothing", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const older = yield* canceledAfterPayment
        yield* apply(
          event("PaymentFailed", "evt_failed", 20, {
            subscriptionId: older.id,
            providerSubscriptionId: "sub_x"
          })
        )
        assert.lengthOf(callsOf(provider, "cancelNow"), 0)
      })
    )
  )

  it.effect("a report that it runs ends it at the provider; a report that it ended does not", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const older = yield* canceledAfterPayment
        const report = (eventId: string, second: number, status: "active" | "canceled") =>
          apply(
            event("SubscriptionStatusReported", eventId, second, {
              subscriptionId: older.id,
              providerSubscriptionId: "sub_running",
              status
            })
          )
        yield* report("evt_over", 20, "canceled")
        assert.lengthOf(callsOf(provider, "cancelNow"), 0)
        yield* report("evt_running", 30, "active")
        assert.deepStrictEqual(callsOf(provider, "cancelNow"), [
          { operation: "cancelNow", subscriptionId: older.id, providerSubscriptionId: "sub_running" }
        ])
      })
    )
  )
})

describe("superseding at the provider", () => {
  it.effect("a new plan waiting for its payment leaves the live one running at the provider", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const live = yield* subscribe(master, team)
        yield* paid(live, "sub_live", 10)
        yield* TestClock.adjust("1 minute")
        yield* subscribe(master, business)
        assert.deepStrictEqual(operations(provider), ["openCheckout", "openCheckout"])
        assert.strictEqual(yield* statusOf(live.id), "active")
      })
    )
  )

  it.effect("a superseded pending subscription's checkout is closed once, and nothing else is asked", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        yield* subscribe(master, team)
        yield* TestClock.adjust("1 second")
        yield* subscribe(master, business)
        assert.deepStrictEqual(
          provider.calls.map((call) => call.operation),
          ["openCheckout", "openCheckout", "closeCheckout"]
        )
      })
    )
  )

  it.effect("retiring one canceled meanwhile writes nothing more", () =>
    withProvider(() =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        yield* TestClock.adjust("1 second")
        const newer = subscriptionOf("sub_newer", 1, "active")
        yield* apply(event("SubscriptionCanceled", "evt_expired", 5, { subscriptionId: pending.id }))
        const canceled = yield* loadSubscription(pending.id)
        yield* retire({ kind: "master" }, pending, isSupersededBy(newer))
        assert.strictEqual((yield* loadSubscription(pending.id)).version, canceled.version)
      })
    )
  )

  it.effect("retiring one that was paid since it was released ends what it now holds at the provider", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const released = yield* subscribe(master, team)
        yield* paid(released, "sub_paid_since", 10)
        yield* retire({ kind: "master" }, released, () => true)
        assert.strictEqual(yield* statusOf(released.id), "canceled")
        assert.deepStrictEqual(callsOf(provider, "cancelNow"), [
          { operation: "cancelNow", subscriptionId: released.id, providerSubscriptionId: "sub_paid_since" }
        ])
      })
    )
  )

  it.effect("a new subscription supersedes every older pending one, each released once", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const store = yield* SubscriptionStore
        const first = subscriptionOf("sub_first", 0, "pending", {
          checkout: new Checkout({ id: "cs_first", url: "https://checkout.example/cs_first" })
        })
        const second = subscriptionOf("sub_second", 0, "pending", {
          checkout: new Checkout({ id: "cs_second", url: "https://checkout.example/cs_second" })
        })
        yield* store.insert(first)
        yield* store.insert(second)
        yield* TestClock.adjust("1 second")
        yield* subscribe(master, business)
        assert.strictEqual(yield* statusOf(first.id), "canceled")
        assert.strictEqual(yield* statusOf(second.id), "canceled")
        assert.sameMembers(
          callsOf(provider, "closeCheckout").map((call) => call.checkoutId),
          ["cs_first", "cs_second"]
        )
      })
    )
  )
})

describe("cancelling, case by case", () => {
  const entries = AuditLog.use((log) => log.page({ action: "subscription.updated" }, 10))

  it.effect(
    "asks the provider to end the live one at the period's end, naming both ids, and ends nothing now",
    () =>
      withProvider((provider) =>
        Effect.gen(function* () {
          const live = yield* subscribe(master, team)
          yield* paid(live, "sub_named", 10)
          yield* cancelSubscription(master)
          assert.deepStrictEqual(callsOf(provider, "cancelAtPeriodEnd"), [
            { operation: "cancelAtPeriodEnd", subscriptionId: live.id, providerSubscriptionId: "sub_named" }
          ])
          assert.lengthOf(callsOf(provider, "cancelNow"), 0)
          assert.lengthOf(callsOf(provider, "closeCheckout"), 0)
        })
      )
  )

  it.effect("calls off pending plan changes only, never another live subscription", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const store = yield* SubscriptionStore
        yield* store.insert(
          subscriptionOf("sub_older_live", 0, "active", { providerSubscriptionId: "sub_a" })
        )
        yield* store.insert(subscriptionOf("sub_current", 1, "active", { providerSubscriptionId: "sub_b" }))
        assert.strictEqual((yield* cancelSubscription(master)).id, "sub_current")
        assert.lengthOf(callsOf(provider, "cancelNow"), 0)
        assert.strictEqual(yield* statusOf(SubscriptionId.make("sub_older_live")), "active")
      })
    )
  )

  it.effect("closes a pending subscription's checkout once", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        yield* subscribe(master, team)
        yield* cancelSubscription(master)
        assert.lengthOf(callsOf(provider, "closeCheckout"), 1)
      })
    )
  )

  it.effect("ends at once, at the provider too, a pending subscription the provider already billed", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        // A failed first payment names the provider's subscription but leaves ours pending.
        yield* apply(
          event("PaymentFailed", "evt_first_failed", 10, {
            subscriptionId: pending.id,
            providerSubscriptionId: "sub_unpaid"
          })
        )
        assert.strictEqual(yield* statusOf(pending.id), "pending")
        const canceled = yield* cancelSubscription(master)
        assert.strictEqual(canceled.status, "canceled")
        assert.deepStrictEqual(operations(provider), ["openCheckout", "cancelNow"])
      })
    )
  )

  it.effect("ends a free plan at once and asks the provider nothing", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        yield* subscribe(master, { planId: "free", planName: "Free", price: 0 })
        assert.strictEqual((yield* cancelSubscription(master)).status, "canceled")
        assert.lengthOf(provider.calls, 0)
      })
    )
  )

  it.effect("answers a canceled subscription as it is, writing and asking nothing", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        yield* subscribe(master, { planId: "free", planName: "Free", price: 0 })
        const first = yield* cancelSubscription(master)
        const again = yield* cancelSubscription(master)
        assert.strictEqual(again.version, first.version)
        assert.lengthOf(yield* entries, 1)
        assert.lengthOf(provider.calls, 0)
      })
    )
  )
})

describe("seats of a plan the provider does not bill", () => {
  const crew = new Plan({
    planId: PlanId.make("crew"),
    planName: "Crew",
    price: new Money({ amountMinor: 0, currency: "EUR" }),
    perSeat: true
  })

  it.effect("are counted here and no provider is asked", () => {
    const provider = makeMemoryPaymentProvider()
    return Effect.gen(function* () {
      const role = yield* roleWith("crew", ["team.read"])
      yield* subscribe(master, { planId: "crew", planName: "Crew", price: 0 })
      yield* addMember(master, memberInput("one", role.id))
      yield* addMember(master, memberInput("two", role.id))
      assert.strictEqual((yield* currentSubscription(master)).seats, 2)
      assert.lengthOf(provider.calls, 0)
    }).pipe(provideRoster({ plans: [...testPlans, crew], paymentProvider: provider.layer }))
  })

  it.effect("a sync with no subscription at all does nothing", () =>
    Effect.gen(function* () {
      yield* syncSeats
      const role = yield* roleWith("crew", ["team.read"])
      assert.strictEqual((yield* addMember(master, memberInput("solo", role.id))).username, "solo")
    }).pipe(provideRoster())
  )
})

describe("the seats the provider is told", () => {
  it.effect("name our subscription and the provider's", () => {
    const provider = makeMemoryPaymentProvider()
    return Effect.gen(function* () {
      const role = yield* roleWith("crew", ["team.read"])
      yield* addMember(master, memberInput("one", role.id))
      const pending = yield* subscribe(master, { planId: "seats", planName: "Seats", price: 5 })
      yield* paid(pending, "sub_counted", 10)
      yield* addMember(master, memberInput("two", role.id))
      assert.deepStrictEqual(callsOf(provider, "setSeats"), [
        {
          operation: "setSeats",
          subscriptionId: pending.id,
          providerSubscriptionId: "sub_counted",
          quantity: 2
        }
      ])
    }).pipe(provideRoster({ plans: [...testPlans, seatPlan], paymentProvider: provider.layer }))
  })
})
