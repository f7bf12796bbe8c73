import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"
import {
  currentSubscription,
  type Subscription,
  type SubscriptionId,
  type SubscriptionStatus,
  subscribe
} from "../../core/index.ts"
import {
  activeTeam,
  apply,
  applyToActiveTeam,
  byProviderId,
  event,
  providerId,
  teamCheckout
} from "../support/payment-events.ts"
import { master, provideRoster } from "../support/roster.ts"
import {
  business,
  loadSubscription,
  openSubscriptions,
  statusHistory,
  statusOf,
  subscriptionIds,
  team
} from "../support/subscriptions.ts"

/** An `activeTeam` and, a minute later, a pending Business subscription meant to replace it. */
const activeTeamAndPendingBusiness = Effect.gen(function* () {
  const old = yield* activeTeam
  yield* TestClock.adjust("1 minute")
  const upgrade = yield* subscribe(master, business)
  return { old, upgrade }
})

/** The checkout that activates the Business `upgrade` at second 70, under a second provider id. */
const businessCheckout = (upgrade: Subscription) =>
  event("PaymentSucceeded", "evt_checkout_2", 70, {
    subscriptionId: upgrade.id,
    providerSubscriptionId: "sub_provider_2"
  })

describe("applyPaymentEvent", () => {
  it.effect("a checkout with our subscription id activates the pending subscription", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      assert.strictEqual(yield* apply(teamCheckout(pending)), "applied")
      const active = yield* loadSubscription(pending.id)
      assert.strictEqual(active.status, "active")
      assert.strictEqual(active.providerSubscriptionId, providerId)
      assert.strictEqual(active.providerCustomerId, "cus_1")
      assert.deepStrictEqual(statusHistory(active), ["pending", "active"])
      assert.strictEqual(DateTime.toEpochMillis(active.history[1]?.at ?? DateTime.makeUnsafe(0)), 10_000)
    }).pipe(provideRoster())
  )

  it.effect("later events are matched by the provider's subscription id alone", () =>
    Effect.gen(function* () {
      const { outcome, after } = yield* applyToActiveTeam(
        event("PaymentFailed", "evt_fail", 20, byProviderId)
      )
      assert.strictEqual(outcome, "applied")
      assert.strictEqual(after.status, "past_due")
    }).pipe(provideRoster())
  )

  it.effect("the provider's ids, once recorded, are not overwritten by later events", () =>
    Effect.gen(function* () {
      const active = yield* activeTeam
      yield* apply(
        event("PaymentFailed", "evt_fail", 20, {
          subscriptionId: active.id,
          providerSubscriptionId: "sub_someone_else",
          providerCustomerId: "cus_someone_else"
        })
      )
      const after = yield* loadSubscription(active.id)
      assert.strictEqual(after.providerSubscriptionId, providerId)
      assert.strictEqual(after.providerCustomerId, "cus_1")
    }).pipe(provideRoster())
  )

  it.effect("runs the full lifecycle pending → active → past_due → active → canceled", () =>
    Effect.gen(function* () {
      const active = yield* activeTeam
      assert.strictEqual(yield* apply(event("PaymentFailed", "evt_2", 20, byProviderId)), "applied")
      assert.strictEqual(yield* statusOf(active.id), "past_due")
      assert.strictEqual(yield* apply(event("PaymentSucceeded", "evt_3", 30, byProviderId)), "applied")
      assert.strictEqual(yield* statusOf(active.id), "active")
      assert.strictEqual(yield* apply(event("SubscriptionCanceled", "evt_4", 40, byProviderId)), "applied")
      const canceled = yield* loadSubscription(active.id)
      assert.strictEqual(canceled.status, "canceled")
      assert.deepStrictEqual(statusHistory(canceled), ["pending", "active", "past_due", "active", "canceled"])
      assert.deepStrictEqual(
        canceled.history.slice(1).map((change) => DateTime.toEpochMillis(change.at)),
        [10_000, 20_000, 30_000, 40_000]
      )
    }).pipe(provideRoster())
  )

  it.effect("a success for an already active subscription changes nothing but is not a duplicate", () =>
    Effect.gen(function* () {
      const { outcome, after } = yield* applyToActiveTeam(
        event("PaymentSucceeded", "evt_renewal", 20, byProviderId)
      )
      assert.strictEqual(outcome, "unchanged")
      assert.deepStrictEqual(statusHistory(after), ["pending", "active"])
    }).pipe(provideRoster())
  )

  describe("matching", () => {
    it.effect("an event for an unknown subscription is unmatched and changes nothing", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const unknownOurs = yield* apply(
          event("PaymentFailed", "evt_x", 20, { subscriptionId: "sub_unknown" as SubscriptionId })
        )
        const unknownProvider = yield* apply(
          event("PaymentFailed", "evt_y", 20, { providerSubscriptionId: "sub_provider_unknown" })
        )
        const noReference = yield* apply(event("PaymentFailed", "evt_z", 20, {}))
        assert.deepStrictEqual(
          [unknownOurs, unknownProvider, noReference],
          ["unmatched", "unmatched", "unmatched"]
        )
        const after = yield* loadSubscription(active.id)
        assert.strictEqual(after.status, "active")
        assert.strictEqual(after.version, active.version)
      }).pipe(provideRoster())
    )

    it.effect("an unknown own id falls back to the provider's subscription id", () =>
      Effect.gen(function* () {
        const { outcome, after } = yield* applyToActiveTeam(
          event("PaymentFailed", "evt_fallback", 20, {
            subscriptionId: "sub_unknown" as SubscriptionId,
            providerSubscriptionId: providerId
          })
        )
        assert.strictEqual(outcome, "applied")
        assert.strictEqual(after.status, "past_due")
      }).pipe(provideRoster())
    )

    it.effect("events reach the right subscription when there are several", () =>
      Effect.gen(function* () {
        const { old: first, upgrade: second } = yield* activeTeamAndPendingBusiness
        yield* apply(businessCheckout(second))
        yield* apply(event("PaymentFailed", "evt_fail_2", 80, { providerSubscriptionId: "sub_provider_2" }))
        assert.strictEqual(yield* statusOf(second.id), "past_due")
        // The first was superseded by the second's activation and stays canceled.
        assert.strictEqual(yield* statusOf(first.id), "canceled")
      }).pipe(provideRoster())
    )
  })

  describe("status rules", () => {
    it.effect("canceled is terminal: a later success does not reactivate", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        yield* apply(event("SubscriptionCanceled", "evt_cancel", 20, byProviderId))
        const canceled = yield* loadSubscription(active.id)
        const outcome = yield* apply(event("PaymentSucceeded", "evt_paid", 30, byProviderId))
        assert.notStrictEqual(outcome, "applied")
        const after = yield* loadSubscription(active.id)
        assert.strictEqual(after.status, "canceled")
        assert.deepStrictEqual(statusHistory(after), statusHistory(canceled))
        const reported = yield* apply(
          event("SubscriptionStatusReported", "evt_status", 40, { ...byProviderId, status: "active" })
        )
        assert.notStrictEqual(reported, "applied")
        assert.strictEqual(yield* statusOf(active.id), "canceled")
      }).pipe(provideRoster())
    )

    it.effect("a pending subscription can be canceled but not made past_due", () =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        const failed = yield* apply(event("PaymentFailed", "evt_fail", 10, { subscriptionId: pending.id }))
        assert.strictEqual(failed, "unchanged")
        assert.strictEqual(yield* statusOf(pending.id), "pending")
        const canceled = yield* apply(
          event("SubscriptionCanceled", "evt_cancel", 20, { subscriptionId: pending.id })
        )
        assert.strictEqual(canceled, "applied")
        assert.deepStrictEqual(statusHistory(yield* loadSubscription(pending.id)), ["pending", "canceled"])
      }).pipe(provideRoster())
    )

    it.effect("activating a pending subscription cancels the previously active one (plan change)", () =>
      Effect.gen(function* () {
        const { old, upgrade } = yield* activeTeamAndPendingBusiness
        assert.strictEqual(yield* statusOf(old.id), "active")
        assert.strictEqual(yield* apply(businessCheckout(upgrade)), "applied")
        assert.strictEqual(yield* statusOf(upgrade.id), "active")
        const superseded = yield* loadSubscription(old.id)
        assert.strictEqual(superseded.status, "canceled")
        assert.deepStrictEqual(statusHistory(superseded), ["pending", "active", "canceled"])
        assert.deepStrictEqual(subscriptionIds(yield* openSubscriptions), [upgrade.id])
        assert.strictEqual((yield* currentSubscription(master)).id, upgrade.id)
      }).pipe(provideRoster())
    )

    it.effect("a payment for an already active subscription does not cancel the others", () =>
      Effect.gen(function* () {
        const { old, upgrade } = yield* activeTeamAndPendingBusiness
        // A renewal of the old subscription must not cancel the pending checkout.
        assert.strictEqual(
          yield* apply(event("PaymentSucceeded", "evt_renewal", 70, byProviderId)),
          "unchanged"
        )
        assert.strictEqual(yield* statusOf(upgrade.id), "pending")
        assert.strictEqual(yield* statusOf(old.id), "active")
      }).pipe(provideRoster())
    )

    it.effect.each([
      ["active", ["pending", "active"]],
      ["canceled", ["pending", "canceled"]]
    ] as const)("SubscriptionStatusReported %s moves a pending subscription to it", ([status, history]) =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        const outcome = yield* apply(
          event("SubscriptionStatusReported", "evt_status", 10, { subscriptionId: pending.id, status })
        )
        assert.strictEqual(outcome, "applied")
        const after = yield* loadSubscription(pending.id)
        assert.strictEqual(after.status, status)
        assert.deepStrictEqual(statusHistory(after), [...history])
      }).pipe(provideRoster())
    )

    it.effect("SubscriptionStatusReported maps each status along the lifecycle", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const report = (id: string, second: number, status: SubscriptionStatus) =>
          apply(event("SubscriptionStatusReported", id, second, { ...byProviderId, status }))
        assert.strictEqual(yield* report("evt_a", 20, "past_due"), "applied")
        assert.strictEqual(yield* statusOf(active.id), "past_due")
        assert.strictEqual(yield* report("evt_b", 30, "active"), "applied")
        assert.strictEqual(yield* statusOf(active.id), "active")
        // "pending" is never reached again from active.
        assert.strictEqual(yield* report("evt_c", 40, "pending"), "unchanged")
        assert.strictEqual(yield* statusOf(active.id), "active")
        assert.strictEqual(yield* report("evt_d", 50, "canceled"), "applied")
        const after = yield* loadSubscription(active.id)
        assert.deepStrictEqual(statusHistory(after), ["pending", "active", "past_due", "active", "canceled"])
      }).pipe(provideRoster())
    )
  })
})
