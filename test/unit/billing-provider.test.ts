import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"
import {
  type MemoryPaymentProvider,
  makeMemoryPaymentProvider,
  providerOperations
} from "../../adapters/memory/index.ts"
import {
  AuditLog,
  cancelSubscription,
  currentSubscription,
  type Subscription,
  subscribe
} from "../../core/index.ts"
import { assertMissingPermission } from "../support/assertions.ts"
import { apply, event } from "../support/payment-events.ts"
import { actorWith, master, provideRoster } from "../support/roster.ts"
import { business, loadSubscription, openSubscriptions, statusOf, team } from "../support/subscriptions.ts"

/** Runs `body` on the in-memory roster with a recording provider it can inspect. */
const withProvider = <A, E, R>(body: (provider: MemoryPaymentProvider) => Effect.Effect<A, E, R>) => {
  const provider = makeMemoryPaymentProvider()
  return body(provider).pipe(provideRoster({ paymentProvider: provider.layer }))
}

const operations = (provider: MemoryPaymentProvider) => provider.effects().map((call) => call.operation)

/** The checkout of `pending`, paid: the provider's subscription `providerSubscriptionId` now bills it. */
const paid = (pending: Subscription, providerSubscriptionId: string, second: number) =>
  apply(
    event("PaymentSucceeded", `evt_paid_${pending.id}`, second, {
      subscriptionId: pending.id,
      providerSubscriptionId
    })
  )

const auditActions = AuditLog.use((log) => log.page({}, 100)).pipe(
  Effect.map((entries) => entries.map((entry) => `${entry.action}:${entry.target.id}`))
)

describe("subscribe with a payment provider", () => {
  it.effect("opens the provider's checkout for the plan's price, referencing the new subscription", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        assert.strictEqual(pending.status, "pending")
        assert.deepStrictEqual(provider.effects(), [
          {
            operation: "openCheckout",
            subscriptionId: pending.id,
            providerPriceId: "price_team",
            quantity: 1
          }
        ])
        assert.strictEqual(pending.checkout?.url, `https://checkout.example/cs_${pending.id}`)
        assert.strictEqual((yield* loadSubscription(pending.id)).checkout?.id, `cs_${pending.id}`)
      })
    )
  )

  it.effect("asks the provider nothing for a free plan", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const free = yield* subscribe(master, { planId: "free", planName: "Free", price: 0 })
        assert.strictEqual(free.status, "active")
        assert.isUndefined(free.checkout)
        assert.lengthOf(provider.calls, 0)
      })
    )
  )

  it.effect("stores nothing and records nothing when the provider is down", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        provider.unavailable = new Set(providerOperations)
        const error = yield* Effect.flip(subscribe(master, team))
        assert.strictEqual(error._tag, "ProviderUnavailable")
        assert.lengthOf(yield* openSubscriptions, 0)
        assert.deepStrictEqual(yield* auditActions, [])
      })
    )
  )

  it.effect("closes the checkout of the pending subscription it supersedes before it writes anything", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const first = yield* subscribe(master, team)
        yield* TestClock.adjust("1 second")
        const second = yield* subscribe(master, business)
        assert.deepStrictEqual(
          provider.effects().filter((call) => call.operation === "closeCheckout"),
          [{ operation: "closeCheckout", subscriptionId: first.id, checkoutId: `cs_${first.id}` }]
        )
        assert.strictEqual(yield* statusOf(first.id), "canceled")
        assert.strictEqual(yield* statusOf(second.id), "pending")
      })
    )
  )

  it.effect("leaves the older pending subscription as it was when closing its checkout fails", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const first = yield* subscribe(master, team)
        yield* TestClock.adjust("1 second")
        provider.unavailable = new Set(["closeCheckout"])
        const error = yield* Effect.flip(subscribe(master, business))
        assert.strictEqual(error._tag, "ProviderUnavailable")
        assert.deepStrictEqual(
          (yield* openSubscriptions).map((open) => [open.id, open.status]),
          [[first.id, "pending"]]
        )
      })
    )
  )
})

describe("a newer subscription that becomes live", () => {
  it.effect("ends the older live one at the provider once, even when its event is delivered again", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const old = yield* subscribe(master, team)
        yield* paid(old, "sub_old", 10)
        yield* TestClock.adjust("1 minute")
        const upgrade = yield* subscribe(master, business)
        yield* paid(upgrade, "sub_new", 70)
        yield* paid(upgrade, "sub_new", 70)
        assert.deepStrictEqual(
          provider.effects().filter((call) => call.operation === "cancelNow"),
          [{ operation: "cancelNow", subscriptionId: old.id, providerSubscriptionId: "sub_old" }]
        )
        assert.strictEqual(yield* statusOf(old.id), "canceled")
        assert.strictEqual(yield* statusOf(upgrade.id), "active")
      })
    )
  )

  it.effect("ends at the provider a superseded subscription whose old checkout was paid after all", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const first = yield* subscribe(master, team)
        yield* TestClock.adjust("1 second")
        yield* subscribe(master, business)
        assert.strictEqual(yield* statusOf(first.id), "canceled")
        yield* paid(first, "sub_late", 20)
        assert.strictEqual(yield* statusOf(first.id), "canceled")
        assert.deepInclude(provider.effects(), {
          operation: "cancelNow",
          subscriptionId: first.id,
          providerSubscriptionId: "sub_late"
        })
      })
    )
  )
})

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

  it.effect(
    "keeps a canceling subscription canceling when an invoice is paid, not when the provider resumes it",
    () =>
      withProvider(() =>
        Effect.gen(function* () {
          const pending = yield* subscribe(master, team)
          yield* paid(pending, "sub_team", 10)
          yield* TestClock.adjust("1 minute")
          yield* cancelSubscription(master)
          const reportBefore = event("SubscriptionStatusReported", "evt_old_report", 40, {
            providerSubscriptionId: "sub_team",
            status: "active"
          })
          assert.strictEqual(yield* apply(reportBefore), "unchanged")
          assert.strictEqual(yield* statusOf(pending.id), "canceling")
          const invoiceAfter = event("PaymentSucceeded", "evt_invoice", 120, {
            providerSubscriptionId: "sub_team"
          })
          assert.strictEqual(yield* apply(invoiceAfter), "unchanged")
          assert.strictEqual(yield* statusOf(pending.id), "canceling")
          const resumed = event("SubscriptionStatusReported", "evt_resumed", 180, {
            providerSubscriptionId: "sub_team",
            status: "active"
          })
          assert.strictEqual(yield* apply(resumed), "applied")
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
})
