import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { activeTeam, apply, applyToActiveTeam, byProviderId, event } from "../support/payment-events.ts"
import { provideRoster } from "../support/roster.ts"
import { loadSubscription, statusHistory, statusOf } from "../support/subscriptions.ts"

describe("applyPaymentEvent", () => {
  describe("ordering", () => {
    it.effect("an older invoice.paid arriving after a newer payment failure is stale", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        assert.strictEqual(yield* apply(event("PaymentFailed", "evt_failed", 30, byProviderId)), "applied")
        const before = yield* loadSubscription(active.id)
        assert.strictEqual(
          yield* apply(event("PaymentSucceeded", "evt_paid_late", 25, byProviderId)),
          "stale"
        )
        const after = yield* loadSubscription(active.id)
        assert.strictEqual(after.status, "past_due")
        assert.deepStrictEqual(statusHistory(after), statusHistory(before))
        assert.strictEqual(after.version, before.version)
      }).pipe(provideRoster())
    )

    it.effect("a stale event, once recorded, is not applied when redelivered", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        yield* apply(event("PaymentFailed", "evt_failed", 30, byProviderId))
        const late = event("PaymentSucceeded", "evt_paid_late", 25, byProviderId)
        assert.strictEqual(yield* apply(late), "stale")
        assert.notStrictEqual(yield* apply(late), "applied")
        assert.strictEqual(yield* statusOf(active.id), "past_due")
      }).pipe(provideRoster())
    )

    // The checkout that activated the subscription happened at second 10.
    it.effect.each([
      [
        "an event older than the checkout cannot move the subscription",
        event("SubscriptionCanceled", "evt_old", 5, byProviderId),
        "stale",
        "active"
      ],
      [
        "an event at the same instant as the last applied one still applies",
        event("PaymentFailed", "evt_same_time", 10, byProviderId),
        "applied",
        "past_due"
      ]
    ] as const)("%s", ([, paymentEvent, outcome, status]) =>
      Effect.gen(function* () {
        const applied = yield* applyToActiveTeam(paymentEvent)
        assert.strictEqual(applied.outcome, outcome)
        assert.strictEqual(applied.after.status, status)
      }).pipe(provideRoster())
    )
  })
})
