import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"
import { providerOperations } from "../../adapters/memory/index.ts"
import { cancelSubscription, currentSubscription, subscribe } from "../../core/index.ts"
import { assertMissingPermission } from "../support/assertions.ts"
import { operations, paid, withProvider } from "../support/billing-provider.ts"
import { apply, event } from "../support/payment-events.ts"
import { actorWith, master, provideRoster } from "../support/roster.ts"
import { business, loadSubscription, statusOf, team } from "../support/subscriptions.ts"

describe("cancelSubscription", () => {
  it.effect(
    "asks the provider to end a paid subscription at its period's end: canceling until it confirms",
    () =>
      withProvider((provider) =>
        Effect.gen(function* () {
          const pending = yield* subscribe(master, team)
          yield* paid(pending, "sub_team", 10)
          const canceling = yield* cancelSubscription(master)
          assert.strictEqual(canceling.status, "canceling")
          assert.deepStrictEqual(canceling.cancelAt, DateTime.addDuration(yield* DateTime.now, "30 days"))
          assert.include(operations(provider), "cancelAtPeriodEnd")
          const again = yield* cancelSubscription(master)
          assert.strictEqual(again.version, canceling.version)
          assert.lengthOf(
            provider.calls.filter((call) => call.operation === "cancelAtPeriodEnd"),
            1
          )
          yield* apply(
            event("SubscriptionCanceled", "evt_deleted", 3600, { providerSubscriptionId: "sub_team" })
          )
          assert.strictEqual((yield* currentSubscription(master)).status, "canceled")
        })
      )
  )

  it.effect("orders the provider's reports by their own times; a payment never undoes the cancellation", () =>
    withProvider(() =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        yield* paid(pending, "sub_team", 10)
        yield* TestClock.adjust("1 minute")
        yield* cancelSubscription(master)
        const report = (eventId: string, second: number, status: "active" | "canceling") =>
          apply(
            event("SubscriptionStatusReported", eventId, second, {
              providerSubscriptionId: "sub_team",
              status
            })
          )
        // Sent before the provider heard of the cancellation, delivered after: it is newer than
        // anything applied, so it applies, until the report the cancellation causes arrives.
        assert.strictEqual(yield* report("evt_before", 40, "active"), "applied")
        assert.strictEqual(yield* report("evt_caused", 61, "canceling"), "applied")
        assert.strictEqual(yield* statusOf(pending.id), "canceling")
        const invoice = event("PaymentSucceeded", "evt_invoice", 120, { providerSubscriptionId: "sub_team" })
        assert.strictEqual(yield* apply(invoice), "unchanged")
        assert.strictEqual(yield* statusOf(pending.id), "canceling")
        assert.strictEqual(yield* report("evt_resumed", 180, "active"), "applied")
        const after = yield* loadSubscription(pending.id)
        assert.strictEqual(after.status, "active")
        assert.isUndefined(after.cancelAt)
      })
    )
  )

  it.effect("asks the provider again after the customer resumed the subscription", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        yield* paid(pending, "sub_team", 10)
        yield* TestClock.adjust("1 minute")
        yield* cancelSubscription(master)
        const resumed = event("SubscriptionStatusReported", "evt_resumed", 120, {
          providerSubscriptionId: "sub_team",
          status: "active"
        })
        assert.strictEqual(yield* apply(resumed), "applied")
        yield* TestClock.adjust("2 minutes")
        assert.strictEqual((yield* cancelSubscription(master)).status, "canceling")
        assert.lengthOf(
          provider.effects().filter((call) => call.operation === "cancelAtPeriodEnd"),
          2,
          "a second cancellation is a new request, not a replay of the first"
        )
      })
    )
  )

  it.effect("takes a canceling status and its end time from the provider's own report", () =>
    withProvider(() =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        yield* paid(pending, "sub_team", 10)
        const endsAt = DateTime.makeUnsafe(86_400_000)
        const report = event("SubscriptionStatusReported", "evt_portal", 20, {
          providerSubscriptionId: "sub_team",
          status: "canceling",
          cancelAt: endsAt
        })
        assert.strictEqual(yield* apply(report), "applied")
        const after = yield* loadSubscription(pending.id)
        assert.strictEqual(after.status, "canceling")
        assert.deepStrictEqual(after.cancelAt, endsAt)
      })
    )
  )

  it.effect("ends a pending subscription at once and closes its checkout", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        const canceled = yield* cancelSubscription(master)
        assert.strictEqual(canceled.id, pending.id)
        assert.strictEqual(canceled.status, "canceled")
        assert.deepStrictEqual(operations(provider), ["openCheckout", "closeCheckout"])
      })
    )
  )

  it.effect("changes nothing when the provider is down", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        yield* paid(pending, "sub_team", 10)
        provider.unavailable = new Set(providerOperations)
        const error = yield* Effect.flip(cancelSubscription(master))
        assert.strictEqual(error._tag, "ProviderUnavailable")
        assert.strictEqual(yield* statusOf(pending.id), "active")
      })
    )
  )

  it.effect("ends a subscription at once without a provider", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      yield* paid(pending, "sub_elsewhere", 10)
      const canceled = yield* cancelSubscription(master)
      assert.strictEqual(canceled.status, "canceled")
      assert.isUndefined(canceled.cancelAt)
    }).pipe(provideRoster())
  )

  it.effect("is NotFound when there is no subscription", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(cancelSubscription(master))
      assert.strictEqual(error._tag, "NotFound")
    }).pipe(provideRoster())
  )

  it.effect("needs billing.subscribe: reading the subscription is not enough", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      const { principal } = yield* actorWith("reader", ["billing.read"])
      assertMissingPermission(yield* Effect.flip(cancelSubscription(principal)), "billing.subscribe")
      assert.strictEqual(yield* statusOf(pending.id), "pending")
    }).pipe(provideRoster())
  )

  it.effect("calls off a plan change still waiting for its payment, closing its checkout", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const current = yield* subscribe(master, team)
        yield* paid(current, "sub_team", 10)
        yield* TestClock.adjust("1 minute")
        const upgrade = yield* subscribe(master, business)
        assert.strictEqual((yield* cancelSubscription(master)).id, current.id)
        assert.strictEqual(yield* statusOf(upgrade.id), "canceled")
        assert.deepInclude(provider.effects(), {
          operation: "closeCheckout",
          subscriptionId: upgrade.id,
          checkoutId: `cs_${upgrade.id}`
        })
      })
    )
  )

  it.effect("lets a canceling plan be subscribed to again: the new one replaces it once paid", () =>
    withProvider(() =>
      Effect.gen(function* () {
        const first = yield* subscribe(master, team)
        yield* paid(first, "sub_first", 10)
        yield* cancelSubscription(master)
        yield* TestClock.adjust("1 minute")
        const again = yield* subscribe(master, team)
        assert.strictEqual(again.status, "pending")
        yield* paid(again, "sub_again", 70)
        assert.strictEqual(yield* statusOf(first.id), "canceled")
        assert.strictEqual((yield* currentSubscription(master)).id, again.id)
      })
    )
  )
})
