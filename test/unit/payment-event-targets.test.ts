import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { subscribe } from "../../core/index.ts"
import { activeTeam, apply, event, providerId } from "../support/payment-events.ts"
import { master, provideRoster } from "../support/roster.ts"
import { statusOf, team } from "../support/subscriptions.ts"

describe("which subscription a provider event is about", () => {
  it.effect("follows our reference alone, and never to a subscription of another provider id", () =>
    Effect.gen(function* () {
      const active = yield* activeTeam
      yield* apply(event("PaymentFailed", "evt_ours", 20, { subscriptionId: active.id }))
      assert.strictEqual(yield* statusOf(active.id), "past_due")
      yield* apply(
        event("PaymentSucceeded", "evt_other", 30, {
          subscriptionId: active.id,
          providerSubscriptionId: "sub_other"
        })
      )
      assert.strictEqual(yield* statusOf(active.id), "past_due", "another provider subscription's payment")
      yield* apply(
        event("PaymentSucceeded", "evt_same", 40, {
          subscriptionId: active.id,
          providerSubscriptionId: providerId
        })
      )
      assert.strictEqual(yield* statusOf(active.id), "active")
    }).pipe(provideRoster())
  )
})

describe("an abandoned checkout", () => {
  it.effect("cancels a subscription still waiting for it, and no other", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      yield* apply(event("CheckoutExpired", "evt_expired", 20, { subscriptionId: pending.id }))
      assert.strictEqual(yield* statusOf(pending.id), "canceled")
      const active = yield* activeTeam
      yield* apply(event("CheckoutExpired", "evt_late", 30, { subscriptionId: active.id }))
      assert.strictEqual(yield* statusOf(active.id), "active")
    }).pipe(provideRoster())
  )
})
