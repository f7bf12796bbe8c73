import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  Checkout,
  PaymentEventId,
  Subscription,
  SubscriptionId,
  SubscriptionStore
} from "../../core/index.ts"
import { assertEquals, at, inParallel, nextVersion, subscriptionOf, valueOf } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"
import { subscriptionIds } from "../support/subscriptions.ts"

describe.each(storeKinds)("SubscriptionStore on %s", (_, stores) => {
  it.effect("finds an inserted subscription by id, with every field as it was written", () =>
    Effect.gen(function* () {
      const store = yield* SubscriptionStore
      const plain = subscriptionOf("sub_plain", 1)
      const full = subscriptionOf("sub_full", 2, "past_due", {
        providerSubscriptionId: "sub_provider_1",
        providerCustomerId: "cus_1",
        lastEventAt: at(40),
        recentEventIds: [PaymentEventId.make("evt_1"), PaymentEventId.make("evt_2")],
        version: 4
      })
      yield* store.insert(plain)
      yield* store.insert(full)
      assertEquals(valueOf(yield* store.findById(plain.id), "the plain subscription"), plain)
      assertEquals(valueOf(yield* store.findById(full.id), "the full subscription"), full)
      assert.isTrue(Option.isNone(yield* store.findById(SubscriptionId.make("sub_unknown"))))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("finds a subscription by the provider's id, the newest when several carry it", () =>
    Effect.gen(function* () {
      const store = yield* SubscriptionStore
      const older = subscriptionOf("sub_older", 1, "canceled", { providerSubscriptionId: "sub_provider_1" })
      const newer = subscriptionOf("sub_newer", 2, "active", { providerSubscriptionId: "sub_provider_1" })
      const other = subscriptionOf("sub_other", 3, "active", { providerSubscriptionId: "sub_provider_2" })
      for (const subscription of [newer, older, other, subscriptionOf("sub_none", 4)]) {
        yield* store.insert(subscription)
      }
      assertEquals(valueOf(yield* store.findByProviderSubscriptionId("sub_provider_1")), newer)
      assertEquals(valueOf(yield* store.findByProviderSubscriptionId("sub_provider_2")), other)
      assert.isTrue(Option.isNone(yield* store.findByProviderSubscriptionId("sub_provider_3")))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("latest is the newest whatever its status, the id breaking ties", () =>
    Effect.gen(function* () {
      const store = yield* SubscriptionStore
      assert.isTrue(Option.isNone(yield* store.latest))
      yield* store.insert(subscriptionOf("sub_b", 20, "active"))
      yield* store.insert(subscriptionOf("sub_c", 10, "pending"))
      assert.strictEqual(valueOf(yield* store.latest).id, "sub_b")
      const canceled = subscriptionOf("sub_a", 20, "canceled")
      yield* store.insert(canceled)
      assert.strictEqual(valueOf(yield* store.latest).id, "sub_b", "same instant: the greater id is newer")
      yield* store.insert(subscriptionOf("sub_d", 30, "canceled"))
      assert.strictEqual(valueOf(yield* store.latest).id, "sub_d")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("listOpen lists every subscription not canceled, newest first", () =>
    Effect.gen(function* () {
      const store = yield* SubscriptionStore
      assert.deepStrictEqual(yield* store.listOpen, [])
      const subscriptions = [
        subscriptionOf("sub_1", 10, "active"),
        subscriptionOf("sub_2", 40, "canceled"),
        subscriptionOf("sub_3", 30, "pending"),
        subscriptionOf("sub_5", 20, "past_due"),
        subscriptionOf("sub_4", 20, "pending"),
        subscriptionOf("sub_6", 5, "canceled")
      ]
      for (const subscription of subscriptions) yield* store.insert(subscription)
      const open = yield* store.listOpen
      assert.deepStrictEqual(subscriptionIds(open), ["sub_3", "sub_5", "sub_4", "sub_1"])
      assertEquals(open[0], subscriptions[2], "listed as stored")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("replace writes the next version only over the version it was made from", () =>
    Effect.gen(function* () {
      const store = yield* SubscriptionStore
      const pending = subscriptionOf("sub_1", 1)
      yield* store.insert(pending)
      const active = nextVersion(pending, {
        status: "active",
        providerSubscriptionId: "sub_provider_1",
        recentEventIds: [PaymentEventId.make("evt_1")],
        lastEventAt: at(5)
      })
      assert.isTrue(yield* store.replace(active))
      assertEquals(valueOf(yield* store.findById(pending.id)), active)

      // Made from a version that is no longer stored: refused, and nothing changes.
      assert.isFalse(yield* store.replace(nextVersion(pending, { status: "canceled" })))
      assert.isFalse(yield* store.replace(nextVersion(nextVersion(active, {}), { status: "canceled" })))
      assertEquals(valueOf(yield* store.findById(pending.id)), active)

      // The next version drops what it no longer has.
      const { providerSubscriptionId: _dropped, ...withoutProviderId } = active
      const canceled = nextVersion(new Subscription(withoutProviderId), { status: "canceled" })
      assert.isTrue(yield* store.replace(canceled))
      const stored = valueOf(yield* store.findById(pending.id))
      assertEquals(stored, canceled)
      assert.isUndefined(stored.providerSubscriptionId)
      assert.isTrue(Option.isNone(yield* store.findByProviderSubscriptionId("sub_provider_1")))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("keeps a checkout, a seat count and an end time, and drops them when a version lacks them", () =>
    Effect.gen(function* () {
      const store = yield* SubscriptionStore
      const pending = subscriptionOf("sub_seats", 1, "pending", {
        checkout: new Checkout({ id: "cs_1", url: "https://checkout.example/cs_1" }),
        seats: 3
      })
      yield* store.insert(pending)
      assertEquals(valueOf(yield* store.findById(pending.id)), pending)
      const canceling = nextVersion(pending, { status: "canceling", seats: 4, cancelAt: at(3600) })
      assert.isTrue(yield* store.replace(canceling))
      assertEquals(valueOf(yield* store.findById(pending.id)), canceling)
      const { checkout: _checkout, cancelAt: _cancelAt, ...rest } = canceling
      const resumed = nextVersion(new Subscription(rest), { status: "active" })
      assert.isTrue(yield* store.replace(resumed))
      const stored = valueOf(yield* store.findById(pending.id))
      assertEquals(stored, resumed)
      assert.isUndefined(stored.checkout)
      assert.isUndefined(stored.cancelAt)
      assert.strictEqual(stored.seats, 4)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("replace of an unknown subscription is false and stores nothing", () =>
    Effect.gen(function* () {
      const store = yield* SubscriptionStore
      const ghost = subscriptionOf("sub_ghost", 1, "pending", { version: 2 })
      assert.isFalse(yield* store.replace(ghost))
      assert.isTrue(Option.isNone(yield* store.findById(ghost.id)))
      assert.isTrue(Option.isNone(yield* store.latest))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("two concurrent replaces of one version: exactly one wins and its version is stored", () =>
    Effect.gen(function* () {
      const store = yield* SubscriptionStore
      const pending = subscriptionOf("sub_1", 1)
      yield* store.insert(pending)
      const proposals = [
        nextVersion(pending, { status: "active", providerCustomerId: "cus_a" }),
        nextVersion(pending, { status: "canceled", providerCustomerId: "cus_b" })
      ]
      const outcomes = yield* inParallel(2, (i) => store.replace(proposals[i] ?? pending))
      assert.deepStrictEqual(
        outcomes.filter((won) => won),
        [true]
      )
      const winner = proposals[outcomes.indexOf(true)]
      assertEquals(valueOf(yield* store.findById(pending.id)), winner)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("10 concurrent replaces of one version: one wins, and the next round builds on it", () =>
    Effect.gen(function* () {
      const store = yield* SubscriptionStore
      const pending = subscriptionOf("sub_1", 1)
      yield* store.insert(pending)
      const proposals = Array.from({ length: 10 }, (_, i) =>
        nextVersion(pending, { recentEventIds: [PaymentEventId.make(`evt_${i}`)] })
      )
      const outcomes = yield* inParallel(10, (i) => store.replace(proposals[i] ?? pending))
      assert.strictEqual(outcomes.filter((won) => won).length, 1)
      const winner = valueOf(Option.fromNullishOr(proposals[outcomes.indexOf(true)]), "the winner")
      assertEquals(valueOf(yield* store.findById(pending.id)), winner)

      const second = yield* inParallel(10, (i) =>
        store.replace(nextVersion(winner, { providerCustomerId: `cus_${i}` }))
      )
      assert.strictEqual(second.filter((won) => won).length, 1)
      const stored = valueOf(yield* store.findById(pending.id))
      assert.strictEqual(stored.version, 3)
      assert.deepStrictEqual(stored.recentEventIds, winner.recentEventIds)
      assert.strictEqual(stored.providerCustomerId, `cus_${second.indexOf(true)}`)
    }).pipe(Effect.provide(stores()))
  )
})
