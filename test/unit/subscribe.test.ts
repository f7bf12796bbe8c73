import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"
import {
  applyPaymentEvent,
  currentSubscription,
  PaymentEventId,
  type Subscription,
  subscribe
} from "../../core/index.ts"
import { assertMissingPermission } from "../support/assertions.ts"
import { interleavingSubscriptionStore } from "../support/interleaving.ts"
import { actorWith, master, provideRoster } from "../support/roster.ts"
import {
  business,
  free,
  openSubscriptions,
  statusHistory,
  statusOf,
  subscriptionIds,
  team
} from "../support/subscriptions.ts"

/** Activates a pending subscription as a completed checkout would. */
const activate = (subscription: Subscription, eventId: string) =>
  Effect.gen(function* () {
    const outcome = yield* applyPaymentEvent(
      {
        _tag: "PaymentSucceeded",
        eventId: PaymentEventId.make(eventId),
        occurredAt: yield* DateTime.now,
        subscriptionId: subscription.id,
        providerSubscriptionId: `prov_${eventId}`
      },
      { eventType: "checkout.session.completed", payload: "{}" }
    )
    assert.strictEqual(outcome, "applied")
  })

describe("subscribe", () => {
  describe("checks the request against the catalog", () => {
    it.effect("an unknown plan is UnknownPlan", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(
          subscribe(master, { planId: "enterprise", planName: "Team", price: 19.99 })
        )
        assert.strictEqual(error._tag, "UnknownPlan")
        if (error._tag === "UnknownPlan") assert.strictEqual(error.planId, "enterprise")
        assert.lengthOf(yield* openSubscriptions, 0)
      }).pipe(provideRoster())
    )

    it.effect("plan ids are matched exactly", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(subscribe(master, { ...team, planId: "TEAM" }))
        assert.strictEqual(error._tag, "UnknownPlan")
      }).pipe(provideRoster())
    )

    it.effect.each([
      { name: "another plan's name", planName: "Business" },
      { name: "a different case", planName: "team" },
      { name: "surrounding spaces", planName: " Team " },
      { name: "an empty name", planName: "" }
    ])("a planName with $name is PlanMismatch", ({ planName }) =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(subscribe(master, { ...team, planName }))
        assert.strictEqual(error._tag, "PlanMismatch")
        if (error._tag === "PlanMismatch") {
          assert.strictEqual(error.planId, "team")
          assert.strictEqual(error.planName, planName)
        }
        assert.lengthOf(yield* openSubscriptions, 0)
      }).pipe(provideRoster())
    )

    it.effect.each([19.98, 20, 19.999, 19.991, 19.9899, -19.99, 0, 1999, 0.1999, 99, Number.NaN, Infinity])(
      "the price %d for Team (19.99 EUR) is PriceMismatch",
      (price) =>
        Effect.gen(function* () {
          const error = yield* Effect.flip(subscribe(master, { ...team, price }))
          assert.strictEqual(error._tag, "PriceMismatch")
          if (error._tag === "PriceMismatch") assert.strictEqual(error.planId, "team")
          assert.lengthOf(yield* openSubscriptions, 0)
        }).pipe(provideRoster())
    )

    it.effect("a price that is not free is refused for the free plan", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(subscribe(master, { ...free, price: 0.01 }))
        assert.strictEqual(error._tag, "PriceMismatch")
      }).pipe(provideRoster())
    )

    it.effect("a price computed in floating point that is not exactly 19.99 is refused", () =>
      Effect.gen(function* () {
        // 19.99 reached by addition is not the same double as the literal 19.99.
        const computed = 10.1 + 9.89
        assert.notStrictEqual(computed, 19.99)
        const error = yield* Effect.flip(subscribe(master, { ...team, price: computed }))
        assert.strictEqual(error._tag, "PriceMismatch")
      }).pipe(provideRoster())
    )
  })

  describe("opens a subscription", () => {
    it.effect("the exact price opens a pending subscription priced in minor units", () =>
      Effect.gen(function* () {
        yield* TestClock.adjust("1 hour")
        const now = yield* DateTime.now
        const subscription = yield* subscribe(master, team)
        assert.strictEqual(subscription.status, "pending")
        assert.strictEqual(subscription.planId, "team")
        assert.strictEqual(subscription.planName, "Team")
        assert.strictEqual(subscription.price.amountMinor, 1999)
        assert.strictEqual(subscription.price.currency, "EUR")
        assert.isAbove(subscription.id.length, 0)
        assert.deepStrictEqual(statusHistory(subscription), ["pending"])
        assert.isTrue(DateTime.Equivalence(subscription.createdAt, now))
        // It is stored as returned.
        assert.strictEqual(yield* statusOf(subscription.id), "pending")
      }).pipe(provideRoster())
    )

    it.effect("a whole-euro price is accepted as the integer 99", () =>
      Effect.gen(function* () {
        const subscription = yield* subscribe(master, { ...business, price: 99 })
        assert.strictEqual(subscription.price.amountMinor, 9900)
      }).pipe(provideRoster())
    )

    it.effect("each subscription gets its own id", () =>
      Effect.gen(function* () {
        const first = yield* subscribe(master, team)
        const second = yield* subscribe(master, business)
        assert.notStrictEqual(first.id, second.id)
      }).pipe(provideRoster())
    )

    it.effect("a free plan (price 0) is active at once", () =>
      Effect.gen(function* () {
        const subscription = yield* subscribe(master, free)
        assert.strictEqual(subscription.status, "active")
        assert.strictEqual(subscription.price.amountMinor, 0)
        assert.deepStrictEqual(statusHistory(subscription), ["active"])
        assert.strictEqual(yield* statusOf(subscription.id), "active")
      }).pipe(provideRoster())
    )

    it.effect("a new subscribe replaces the earlier pending one", () =>
      Effect.gen(function* () {
        // The newest subscription wins, so each subscribe happens a moment after the one before.
        const first = yield* subscribe(master, team)
        yield* TestClock.adjust("1 millis")
        const second = yield* subscribe(master, business)
        assert.strictEqual(yield* statusOf(first.id), "canceled")
        assert.strictEqual(yield* statusOf(second.id), "pending")
        assert.deepStrictEqual(subscriptionIds(yield* openSubscriptions), [second.id])
        // Subscribing to the same pending plan again replaces it too (a fresh checkout).
        yield* TestClock.adjust("1 millis")
        const third = yield* subscribe(master, business)
        assert.strictEqual(yield* statusOf(second.id), "canceled")
        const pending = (yield* openSubscriptions).filter((subscription) => subscription.status === "pending")
        assert.deepStrictEqual(subscriptionIds(pending), [third.id])
      }).pipe(provideRoster())
    )

    it.effect("concurrent subscribes never cancel each other: exactly one stays pending", () =>
      Effect.gen(function* () {
        const opened = yield* Effect.all(
          Array.from({ length: 10 }, () => subscribe(master, team)),
          { concurrency: "unbounded" }
        )
        const pending = (yield* openSubscriptions).filter((subscription) => subscription.status === "pending")
        assert.lengthOf(pending, 1)
        assert.include(subscriptionIds(opened), pending[0]?.id)
      }).pipe(Effect.provide(interleavingSubscriptionStore), provideRoster())
    )

    it.effect("a pending checkout leaves the active subscription in place until it is paid", () =>
      Effect.gen(function* () {
        const current = yield* subscribe(master, free)
        const upgrade = yield* subscribe(master, team)
        assert.strictEqual(yield* statusOf(current.id), "active")
        assert.strictEqual(yield* statusOf(upgrade.id), "pending")
      }).pipe(provideRoster())
    )

    it.effect("an active free plan supersedes the previously active paid one", () =>
      Effect.gen(function* () {
        const paid = yield* subscribe(master, team)
        yield* activate(paid, "evt_paid")
        yield* TestClock.adjust("1 millis")
        const downgrade = yield* subscribe(master, free)
        assert.strictEqual(downgrade.status, "active")
        assert.strictEqual(yield* statusOf(paid.id), "canceled")
        assert.deepStrictEqual(subscriptionIds(yield* openSubscriptions), [downgrade.id])
      }).pipe(provideRoster())
    )

    it.effect("subscribing again to the active free plan is AlreadySubscribed", () =>
      Effect.gen(function* () {
        const first = yield* subscribe(master, free)
        const error = yield* Effect.flip(subscribe(master, free))
        assert.strictEqual(error._tag, "AlreadySubscribed")
        if (error._tag === "AlreadySubscribed") assert.strictEqual(error.planId, "free")
        assert.strictEqual(yield* statusOf(first.id), "active")
        assert.lengthOf(yield* openSubscriptions, 1)
      }).pipe(provideRoster())
    )

    it.effect("subscribing again to a paid plan that is active or past due is AlreadySubscribed", () =>
      Effect.gen(function* () {
        const paid = yield* subscribe(master, team)
        yield* activate(paid, "evt_1")
        const error = yield* Effect.flip(subscribe(master, team))
        assert.strictEqual(error._tag, "AlreadySubscribed")

        yield* TestClock.adjust("1 day")
        yield* applyPaymentEvent(
          {
            _tag: "PaymentFailed",
            eventId: PaymentEventId.make("evt_2"),
            occurredAt: yield* DateTime.now,
            providerSubscriptionId: "prov_evt_1"
          },
          { eventType: "invoice.payment_failed", payload: "{}" }
        )
        assert.strictEqual(yield* statusOf(paid.id), "past_due")
        const again = yield* Effect.flip(subscribe(master, team))
        assert.strictEqual(again._tag, "AlreadySubscribed")
        // Another plan is still allowed.
        const other = yield* subscribe(master, business)
        assert.strictEqual(other.status, "pending")
      }).pipe(provideRoster())
    )
  })

  describe("authorization", () => {
    it.effect("subscribe requires billing.subscribe", () =>
      Effect.gen(function* () {
        const { principal: reader } = yield* actorWith("reader", ["billing.read", "team.read"])
        const error = yield* Effect.flip(subscribe(reader, team))
        assertMissingPermission(error, "billing.subscribe")
        assert.lengthOf(yield* openSubscriptions, 0)

        const { principal: buyer } = yield* actorWith("buyer", ["billing.subscribe"])
        const subscription = yield* subscribe(buyer, team)
        assert.strictEqual(subscription.status, "pending")
      }).pipe(provideRoster())
    )

    it.effect("the permission is checked before the catalog, so nothing about plans leaks", () =>
      Effect.gen(function* () {
        const { principal: reader } = yield* actorWith("reader", ["team.read"])
        const error = yield* Effect.flip(subscribe(reader, { planId: "nope", planName: "x", price: 1 }))
        assert.strictEqual(error._tag, "Forbidden")
      }).pipe(provideRoster())
    )

    it.effect("currentSubscription requires billing.read", () =>
      Effect.gen(function* () {
        yield* subscribe(master, free)
        const { principal: outsider } = yield* actorWith("outsider", ["team.read"])
        const error = yield* Effect.flip(currentSubscription(outsider))
        assert.strictEqual(error._tag, "Forbidden")
        const { principal: reader } = yield* actorWith("reader", ["billing.read"])
        assert.strictEqual((yield* currentSubscription(reader)).planId, "free")
      }).pipe(provideRoster())
    )
  })

  describe("currentSubscription", () => {
    it.effect("is NotFound when there is none", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(currentSubscription(master))
        assert.strictEqual(error._tag, "NotFound")
        if (error._tag === "NotFound") assert.strictEqual(error.entity, "subscription")
      }).pipe(provideRoster())
    )

    it.effect("returns the live subscription rather than a newer pending one", () =>
      Effect.gen(function* () {
        const live = yield* subscribe(master, free)
        yield* TestClock.adjust("1 minute")
        yield* subscribe(master, team)
        const current = yield* currentSubscription(master)
        assert.strictEqual(current.id, live.id)
        assert.strictEqual(current.status, "active")
      }).pipe(provideRoster())
    )

    it.effect("returns the pending subscription when nothing is live", () =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        const current = yield* currentSubscription(master)
        assert.strictEqual(current.id, pending.id)
        assert.strictEqual(current.status, "pending")
      }).pipe(provideRoster())
    )

    it.effect("follows a paid plan change", () =>
      Effect.gen(function* () {
        const first = yield* subscribe(master, team)
        yield* activate(first, "evt_a")
        yield* TestClock.adjust("1 minute")
        const second = yield* subscribe(master, business)
        assert.strictEqual((yield* currentSubscription(master)).id, first.id)
        yield* activate(second, "evt_b")
        const current = yield* currentSubscription(master)
        assert.strictEqual(current.id, second.id)
        assert.strictEqual(current.status, "active")
      }).pipe(provideRoster())
    )
  })
})
