import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { providerOperations } from "../../adapters/memory/index.ts"
import { SubscriptionStore, subscribe } from "../../core/index.ts"
import { supersedeOthers } from "../../core/steps/billing/supersede.ts"
import { auditActions, operations, paid, withProvider } from "../support/billing-provider.ts"
import { subscriptionOf } from "../support/contract.ts"
import { master } from "../support/roster.ts"
import { business, loadSubscription, openSubscriptions, statusOf, team } from "../support/subscriptions.ts"

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

  it.effect("leaves alone an older subscription that was paid before the newer one could supersede it", () =>
    withProvider((provider) =>
      Effect.gen(function* () {
        const older = yield* subscribe(master, team)
        // The newer one is written; before it supersedes anything, the older checkout's payment lands.
        const newer = subscriptionOf("sub_newer", 1, "pending")
        yield* (yield* SubscriptionStore).insert(newer)
        yield* paid(older, "sub_older", 5)
        yield* supersedeOthers({ kind: "master" }, newer, [older])
        assert.strictEqual(yield* statusOf(older.id), "active")
        assert.notInclude(operations(provider), "cancelNow")
      })
    )
  )
})
