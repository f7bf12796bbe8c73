import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { paymentInboxLayer, subscriptionStoreLayer } from "../../adapters/resources/index.ts"
import {
  PaymentInbox,
  recentEventLimit,
  StoreUnavailable,
  SubscriptionStore,
  subscribe
} from "../../core/index.ts"
import { inboxEntryFor, inParallel } from "../support/contract.ts"
import {
  interleavingPaymentInbox,
  interleavingSubscriptionStore,
  memoryStoreChanged
} from "../support/interleaving.ts"
import { activeTeam, apply, byProviderId, event, teamCheckout } from "../support/payment-events.ts"
import { master, provideRoster } from "../support/roster.ts"
import { business, loadSubscription, statusHistory, statusOf, team } from "../support/subscriptions.ts"

const interleavingStores = Layer.mergeAll(interleavingSubscriptionStore, interleavingPaymentInbox)

/** A failed renewal of `activeTeam`, after its checkout. */
const failedRenewal = event("PaymentFailed", "evt_fail", 20, byProviderId)

describe("applyPaymentEvent", () => {
  describe("at most once", () => {
    it.effect("the same event id applied twice: the second is a duplicate and adds no history", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        assert.strictEqual(yield* apply(failedRenewal), "applied")
        const once = yield* loadSubscription(active.id)
        assert.strictEqual(yield* apply(failedRenewal), "duplicate")
        const twice = yield* loadSubscription(active.id)
        assert.deepStrictEqual(statusHistory(twice), ["pending", "active", "past_due"])
        assert.strictEqual(twice.version, once.version)
      }).pipe(provideRoster())
    )

    it.effect("a redelivered event is a duplicate even after the status moved on", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        yield* apply(failedRenewal)
        yield* apply(event("PaymentSucceeded", "evt_paid", 30, byProviderId))
        // Redelivered with a newer creation time would still be the same provider event.
        assert.strictEqual(
          yield* apply({ ...failedRenewal, occurredAt: DateTime.makeUnsafe(50_000) }),
          "duplicate"
        )
        const after = yield* loadSubscription(active.id)
        assert.strictEqual(after.status, "active")
        assert.deepStrictEqual(statusHistory(after), ["pending", "active", "past_due", "active"])
      }).pipe(provideRoster())
    )

    it.effect("an event is still a duplicate after more later events than the subscription remembers", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const paid = event("PaymentSucceeded", "evt_paid", 30, byProviderId)
        yield* apply(event("PaymentFailed", "evt_failed", 30, byProviderId))
        assert.strictEqual(yield* apply(paid), "applied")
        yield* apply(event("PaymentFailed", "evt_failed_again", 30, byProviderId))
        // Many more events at the same instant push "evt_paid" out of the subscription's recent ids.
        for (let i = 0; i < recentEventLimit + 5; i++) {
          assert.strictEqual(
            yield* apply(event("PaymentFailed", `evt_retry_${i}`, 30, byProviderId)),
            "unchanged"
          )
        }
        assert.notInclude((yield* loadSubscription(active.id)).recentEventIds, paid.eventId)
        assert.strictEqual(yield* apply(paid), "duplicate")
        assert.strictEqual(yield* statusOf(active.id), "past_due")
      }).pipe(provideRoster())
    )

    it.effect("the checkout event applied twice does not activate twice", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        assert.strictEqual(yield* apply(teamCheckout(active)), "duplicate")
        assert.deepStrictEqual(statusHistory(yield* loadSubscription(active.id)), ["pending", "active"])
      }).pipe(provideRoster())
    )

    const concurrentFailures = Effect.gen(function* () {
      const active = yield* activeTeam
      const outcomes = yield* inParallel(20, () => apply(failedRenewal))
      assert.strictEqual(outcomes.filter((outcome) => outcome === "applied").length, 1)
      assert.strictEqual(outcomes.filter((outcome) => outcome === "duplicate").length, 19)
      const after = yield* loadSubscription(active.id)
      assert.strictEqual(after.status, "past_due")
      assert.deepStrictEqual(statusHistory(after), ["pending", "active", "past_due"])
      assert.strictEqual(after.version, active.version + 1)
      // The inbox keeps the outcome of the delivery that applied it, not a losing duplicate's.
      assert.strictEqual((yield* inboxEntryFor(failedRenewal.eventId)).outcome, "applied")
    })

    it.effect("20 concurrent deliveries of the same event apply it exactly once", () =>
      concurrentFailures.pipe(provideRoster())
    )

    it.effect("20 interleaved deliveries of the same event apply it exactly once", () =>
      concurrentFailures.pipe(Effect.provide(interleavingStores), provideRoster())
    )

    it.effect("20 interleaved checkouts of one pending subscription activate it once", () =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        const outcomes = yield* inParallel(20, () => apply(teamCheckout(pending)))
        assert.deepStrictEqual(
          outcomes.filter((outcome) => outcome !== "duplicate"),
          ["applied"]
        )
        assert.deepStrictEqual(statusHistory(yield* loadSubscription(pending.id)), ["pending", "active"])
      }).pipe(Effect.provide(interleavingStores), provideRoster())
    )

    it.effect("interleaved distinct events each apply once", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        // As many simultaneous events as the store's compare-and-set retries are sized for.
        const events = Array.from({ length: 5 }, (_, i) =>
          event(i % 2 === 0 ? "PaymentFailed" : "PaymentSucceeded", `evt_${i}`, 20, byProviderId)
        )
        const outcomes = yield* Effect.all(events.map(apply), { concurrency: "unbounded" })
        assert.notInclude(outcomes, "duplicate")
        assert.notInclude(outcomes, "stale")
        const after = yield* loadSubscription(active.id)
        assert.includeMembers(
          [...after.recentEventIds],
          events.map((e) => e.eventId)
        )
        const changes = outcomes.filter((outcome) => outcome === "applied").length
        assert.strictEqual(after.history.length, 2 + changes)
      }).pipe(Effect.provide(interleavingStores), provideRoster())
    )

    it.effect("the inbox records each delivery once, with its outcome", () =>
      Effect.gen(function* () {
        yield* activeTeam
        yield* apply(failedRenewal)
        yield* apply(failedRenewal)
        const entry = yield* inboxEntryFor(failedRenewal.eventId)
        assert.strictEqual(entry.eventType, "invoice.payment_failed")
        assert.strictEqual(entry.payload, JSON.stringify({ id: "evt_fail" }))
        assert.strictEqual(entry.outcome, "applied")
      }).pipe(provideRoster())
    )
  })
})

describe("a delivery that stops between applying and completing", () => {
  /** An inbox whose first `complete` fails, as if the process died right after writing the effect. */
  const inboxFailingOnce = memoryStoreChanged(PaymentInbox, paymentInboxLayer, (inbox) => {
    let failures = 1
    return PaymentInbox.of({
      receive: inbox.receive,
      complete: (eventId, outcome, at) =>
        failures-- > 0 ? Effect.fail(new StoreUnavailable()) : inbox.complete(eventId, outcome, at)
    })
  })

  it.effect("is repaired by the redelivery, which applies nothing twice and completes the inbox", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      const checkout = event("PaymentSucceeded", "evt_lost", 10, { subscriptionId: pending.id })
      const first = yield* Effect.flip(apply(checkout))
      assert.strictEqual(first._tag, "StoreUnavailable")
      assert.strictEqual(yield* statusOf(pending.id), "active")

      assert.strictEqual(yield* apply(checkout), "duplicate")
      assert.deepStrictEqual(statusHistory(yield* loadSubscription(pending.id)), ["pending", "active"])
      assert.strictEqual((yield* inboxEntryFor(checkout.eventId)).outcome, "applied")
    }).pipe(Effect.provide(inboxFailingOnce), provideRoster())
  )
})

describe("a delivery that stops between activating and superseding", () => {
  /** A subscription store whose listing fails once when armed, as if the process died mid-way. */
  const armed = { failListOpen: false }
  const storeFailingOnceWhenArmed = memoryStoreChanged(SubscriptionStore, subscriptionStoreLayer, (store) =>
    SubscriptionStore.of({
      ...store,
      listOpen: Effect.suspend(() => {
        if (!armed.failListOpen) return store.listOpen
        armed.failListOpen = false
        return Effect.fail(new StoreUnavailable())
      })
    })
  )

  it.effect("is repaired by the redelivery, which cancels the superseded plan", () =>
    Effect.gen(function* () {
      const old = yield* activeTeam
      yield* TestClock.adjust("1 millis")
      const upgrade = yield* subscribe(master, business)
      const checkout = event("PaymentSucceeded", "evt_upgrade", 20, { subscriptionId: upgrade.id })
      armed.failListOpen = true
      assert.strictEqual((yield* Effect.flip(apply(checkout)))._tag, "StoreUnavailable")
      assert.strictEqual(yield* statusOf(upgrade.id), "active")
      assert.strictEqual(yield* statusOf(old.id), "active")

      assert.strictEqual(yield* apply(checkout), "duplicate")
      assert.strictEqual(yield* statusOf(old.id), "canceled")
      assert.strictEqual(yield* statusOf(upgrade.id), "active")
    }).pipe(Effect.provide(storeFailingOnceWhenArmed), provideRoster())
  )
})
