import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { currentSubscription, SubscriptionId, subscribe } from "../../core/index.ts"
import { corePortsOn, inboxEntryFor, inParallel } from "../support/contract.ts"
import { activeTeam, apply, byProviderId, event, teamCheckout } from "../support/payment-events.ts"
import { master } from "../support/roster.ts"
import { storeKinds } from "../support/stores.ts"
import {
  business,
  loadSubscription,
  openSubscriptions,
  statusHistory,
  statusOf,
  subscriptionIds,
  team
} from "../support/subscriptions.ts"

/** A failed renewal of `activeTeam`, 10 seconds after its checkout. */
const failedRenewal = event("PaymentFailed", "evt_fail", 20, byProviderId)

describe.each(storeKinds)("payment events on %s", (_, stores) => {
  it.effect("20 concurrent deliveries of one event apply it once", () =>
    Effect.gen(function* () {
      const active = yield* activeTeam
      const outcomes = yield* inParallel(20, () => apply(failedRenewal))
      assert.strictEqual(outcomes.filter((outcome) => outcome === "applied").length, 1)
      assert.strictEqual(outcomes.filter((outcome) => outcome === "duplicate").length, 19)
      const after = yield* loadSubscription(active.id)
      assert.strictEqual(after.status, "past_due")
      assert.deepStrictEqual(statusHistory(after), ["pending", "active", "past_due"])
      assert.strictEqual(after.version, active.version + 1)
      assert.strictEqual((yield* inboxEntryFor(failedRenewal.eventId)).outcome, "applied")
    }).pipe(Effect.provide(corePortsOn(stores())))
  )

  it.effect("20 concurrent deliveries of one checkout activate the pending subscription once", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      const outcomes = yield* inParallel(20, () => apply(teamCheckout(pending)))
      assert.deepStrictEqual(
        outcomes.filter((outcome) => outcome !== "duplicate"),
        ["applied"]
      )
      const after = yield* loadSubscription(pending.id)
      assert.deepStrictEqual(statusHistory(after), ["pending", "active"])
      assert.strictEqual(after.version, pending.version + 1)
      assert.strictEqual(after.providerSubscriptionId, byProviderId.providerSubscriptionId)
    }).pipe(Effect.provide(corePortsOn(stores())))
  )

  it.effect("an older invoice event arriving after a newer one changes nothing", () =>
    Effect.gen(function* () {
      const active = yield* activeTeam
      assert.strictEqual(yield* apply(event("PaymentFailed", "evt_failed", 30, byProviderId)), "applied")
      const before = yield* loadSubscription(active.id)

      assert.strictEqual(yield* apply(event("PaymentSucceeded", "evt_paid_late", 25, byProviderId)), "stale")
      assert.strictEqual(
        yield* apply(event("SubscriptionCanceled", "evt_old_cancel", 15, byProviderId)),
        "stale"
      )
      const after = yield* loadSubscription(active.id)
      assert.strictEqual(after.status, "past_due")
      assert.deepStrictEqual(statusHistory(after), statusHistory(before))
      assert.strictEqual(after.version, before.version)
      assert.strictEqual((yield* inboxEntryFor("evt_paid_late")).outcome, "stale")

      // A newer event still applies.
      assert.strictEqual(yield* apply(event("PaymentSucceeded", "evt_paid", 40, byProviderId)), "applied")
      assert.deepStrictEqual(statusHistory(yield* loadSubscription(active.id)), [
        "pending",
        "active",
        "past_due",
        "active"
      ])
    }).pipe(Effect.provide(corePortsOn(stores())))
  )

  it.effect("an event for a subscription nobody knows is unmatched and recorded so", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      const stranger = event("PaymentSucceeded", "evt_stranger", 10, {
        subscriptionId: SubscriptionId.make("sub_unknown"),
        providerSubscriptionId: "sub_provider_unknown"
      })
      assert.strictEqual(yield* apply(stranger), "unmatched")
      assert.strictEqual((yield* inboxEntryFor("evt_stranger")).outcome, "unmatched")
      assert.strictEqual(yield* statusOf(pending.id), "pending")
      assert.strictEqual(yield* apply(stranger), "duplicate")
    }).pipe(Effect.provide(corePortsOn(stores())))
  )

  it.effect("a paid upgrade supersedes the older live subscription", () =>
    Effect.gen(function* () {
      const old = yield* activeTeam
      yield* TestClock.adjust("1 minute")
      const upgrade = yield* subscribe(master, business)
      assert.deepStrictEqual(subscriptionIds(yield* openSubscriptions), [upgrade.id, old.id])
      const checkout = event("PaymentSucceeded", "evt_upgrade", 70, {
        subscriptionId: upgrade.id,
        providerSubscriptionId: "sub_provider_2"
      })
      assert.strictEqual(yield* apply(checkout), "applied")
      assert.strictEqual(yield* statusOf(upgrade.id), "active")
      assert.strictEqual(yield* statusOf(old.id), "canceled")
      assert.deepStrictEqual(subscriptionIds(yield* openSubscriptions), [upgrade.id])
      assert.strictEqual((yield* currentSubscription(master)).id, upgrade.id)
    }).pipe(Effect.provide(corePortsOn(stores())))
  )
})
