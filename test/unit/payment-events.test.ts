import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { makePaymentInbox, makeSubscriptionStore } from "../../adapters/memory/index.ts"
import {
  applyPaymentEvent,
  currentSubscription,
  InboxEntry,
  type PaymentEvent,
  PaymentEventId,
  PaymentInbox,
  recentEventLimit,
  StoreUnavailable,
  type Subscription,
  type SubscriptionId,
  type SubscriptionStatus,
  SubscriptionStore,
  subscribe
} from "../../core/index.ts"
import { master, provideRoster } from "../support/roster.ts"

type Tag = PaymentEvent["_tag"]

interface Refs {
  readonly subscriptionId?: SubscriptionId
  readonly providerSubscriptionId?: string
  readonly providerCustomerId?: string
  readonly status?: SubscriptionStatus
}

const receipts: Record<Tag, string> = {
  PaymentSucceeded: "invoice.paid",
  PaymentFailed: "invoice.payment_failed",
  SubscriptionCanceled: "customer.subscription.deleted",
  SubscriptionStatusReported: "customer.subscription.updated"
}

/** A provider event created `second` seconds after the epoch. */
const event = (tag: Tag, eventId: string, second: number, refs: Refs): PaymentEvent => {
  const common = {
    eventId: PaymentEventId.make(eventId),
    occurredAt: DateTime.makeUnsafe(second * 1000),
    ...(refs.subscriptionId === undefined ? {} : { subscriptionId: refs.subscriptionId }),
    ...(refs.providerSubscriptionId === undefined
      ? {}
      : { providerSubscriptionId: refs.providerSubscriptionId }),
    ...(refs.providerCustomerId === undefined ? {} : { providerCustomerId: refs.providerCustomerId })
  }
  return tag === "SubscriptionStatusReported"
    ? { _tag: tag, ...common, status: refs.status ?? "active" }
    : { _tag: tag, ...common }
}

const apply = (paymentEvent: PaymentEvent) =>
  applyPaymentEvent(paymentEvent, {
    eventType: receipts[paymentEvent._tag],
    payload: JSON.stringify({ id: paymentEvent.eventId })
  })

const load = (id: SubscriptionId) =>
  Effect.gen(function* () {
    const found = yield* (yield* SubscriptionStore).findById(id)
    assert.isTrue(Option.isSome(found), `subscription ${id} exists`)
    return Option.getOrThrow(found)
  })

const statuses = (subscription: Subscription) => subscription.history.map((change) => change.status)

/** Yields to other fibers before and after `self`, so concurrent use cases really interleave. */
const interleaved = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.yieldNow.pipe(
    Effect.andThen(self),
    Effect.tap(() => Effect.yieldNow)
  )

/** The in-memory subscription store and inbox, with every call a point where other fibers run. */
const interleavingStores = Layer.mergeAll(
  Layer.effect(
    SubscriptionStore,
    Effect.map(makeSubscriptionStore, (store) =>
      SubscriptionStore.of({
        insert: (subscription) => interleaved(store.insert(subscription)),
        findById: (id) => interleaved(store.findById(id)),
        findByProviderSubscriptionId: (id) => interleaved(store.findByProviderSubscriptionId(id)),
        listOpen: interleaved(store.listOpen),
        latest: interleaved(store.latest),
        replace: (next) => interleaved(store.replace(next))
      })
    )
  ),
  Layer.effect(
    PaymentInbox,
    Effect.map(makePaymentInbox, (inbox) =>
      PaymentInbox.of({
        receive: (entry) => interleaved(inbox.receive(entry)),
        complete: (eventId, outcome, at) => interleaved(inbox.complete(eventId, outcome, at))
      })
    )
  )
)

/** What the inbox recorded for `eventId`. */
const inboxEntry = (eventId: PaymentEventId) =>
  Effect.gen(function* () {
    const earlier = yield* (yield* PaymentInbox).receive(
      new InboxEntry({ eventId, eventType: "probe", payload: "probe", receivedAt: yield* DateTime.now })
    )
    assert.isTrue(Option.isSome(earlier), `the inbox knows ${eventId}`)
    return Option.getOrThrow(earlier)
  })

const team = { planId: "team", planName: "Team", price: 19.99 }
const business = { planId: "business", planName: "Business", price: 99 }

const providerId = "sub_provider_1"

/** A pending Team subscription, activated by a checkout at second 10 that names the provider's ids. */
const activeTeam = Effect.gen(function* () {
  const pending = yield* subscribe(master, team)
  const outcome = yield* apply(
    event("PaymentSucceeded", "evt_checkout", 10, {
      subscriptionId: pending.id,
      providerSubscriptionId: providerId,
      providerCustomerId: "cus_1"
    })
  )
  assert.strictEqual(outcome, "applied")
  return yield* load(pending.id)
})

describe("applyPaymentEvent", () => {
  it.effect("a checkout with our subscription id activates the pending subscription", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      const outcome = yield* apply(
        event("PaymentSucceeded", "evt_checkout", 10, {
          subscriptionId: pending.id,
          providerSubscriptionId: providerId,
          providerCustomerId: "cus_1"
        })
      )
      assert.strictEqual(outcome, "applied")
      const active = yield* load(pending.id)
      assert.strictEqual(active.status, "active")
      assert.strictEqual(active.providerSubscriptionId, providerId)
      assert.strictEqual(active.providerCustomerId, "cus_1")
      assert.deepStrictEqual(statuses(active), ["pending", "active"])
      assert.strictEqual(DateTime.toEpochMillis(active.history[1]?.at ?? DateTime.makeUnsafe(0)), 10_000)
    }).pipe(provideRoster())
  )

  it.effect("later events are matched by the provider's subscription id alone", () =>
    Effect.gen(function* () {
      const active = yield* activeTeam
      const outcome = yield* apply(
        event("PaymentFailed", "evt_fail", 20, { providerSubscriptionId: providerId })
      )
      assert.strictEqual(outcome, "applied")
      assert.strictEqual((yield* load(active.id)).status, "past_due")
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
      const after = yield* load(active.id)
      assert.strictEqual(after.providerSubscriptionId, providerId)
      assert.strictEqual(after.providerCustomerId, "cus_1")
    }).pipe(provideRoster())
  )

  it.effect("runs the full lifecycle pending → active → past_due → active → canceled", () =>
    Effect.gen(function* () {
      const active = yield* activeTeam
      const ref = { providerSubscriptionId: providerId }
      assert.strictEqual(yield* apply(event("PaymentFailed", "evt_2", 20, ref)), "applied")
      assert.strictEqual((yield* load(active.id)).status, "past_due")
      assert.strictEqual(yield* apply(event("PaymentSucceeded", "evt_3", 30, ref)), "applied")
      assert.strictEqual((yield* load(active.id)).status, "active")
      assert.strictEqual(yield* apply(event("SubscriptionCanceled", "evt_4", 40, ref)), "applied")
      const canceled = yield* load(active.id)
      assert.strictEqual(canceled.status, "canceled")
      assert.deepStrictEqual(statuses(canceled), ["pending", "active", "past_due", "active", "canceled"])
      assert.deepStrictEqual(
        canceled.history.slice(1).map((change) => DateTime.toEpochMillis(change.at)),
        [10_000, 20_000, 30_000, 40_000]
      )
    }).pipe(provideRoster())
  )

  it.effect("a success for an already active subscription changes nothing but is not a duplicate", () =>
    Effect.gen(function* () {
      const active = yield* activeTeam
      const outcome = yield* apply(
        event("PaymentSucceeded", "evt_renewal", 20, { providerSubscriptionId: providerId })
      )
      assert.strictEqual(outcome, "unchanged")
      assert.deepStrictEqual(statuses(yield* load(active.id)), ["pending", "active"])
    }).pipe(provideRoster())
  )

  describe("at most once", () => {
    it.effect("the same event id applied twice: the second is a duplicate and adds no history", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const failure = event("PaymentFailed", "evt_fail", 20, { providerSubscriptionId: providerId })
        assert.strictEqual(yield* apply(failure), "applied")
        const once = yield* load(active.id)
        assert.strictEqual(yield* apply(failure), "duplicate")
        const twice = yield* load(active.id)
        assert.deepStrictEqual(statuses(twice), ["pending", "active", "past_due"])
        assert.strictEqual(twice.version, once.version)
      }).pipe(provideRoster())
    )

    it.effect("a redelivered event is a duplicate even after the status moved on", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const ref = { providerSubscriptionId: providerId }
        const failure = event("PaymentFailed", "evt_fail", 20, ref)
        yield* apply(failure)
        yield* apply(event("PaymentSucceeded", "evt_paid", 30, ref))
        // Redelivered with a newer creation time would still be the same provider event.
        assert.strictEqual(yield* apply({ ...failure, occurredAt: DateTime.makeUnsafe(50_000) }), "duplicate")
        const after = yield* load(active.id)
        assert.strictEqual(after.status, "active")
        assert.deepStrictEqual(statuses(after), ["pending", "active", "past_due", "active"])
      }).pipe(provideRoster())
    )

    it.effect("an event is still a duplicate after more later events than the subscription remembers", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const ref = { providerSubscriptionId: providerId }
        const paid = event("PaymentSucceeded", "evt_paid", 30, ref)
        yield* apply(event("PaymentFailed", "evt_failed", 30, ref))
        assert.strictEqual(yield* apply(paid), "applied")
        yield* apply(event("PaymentFailed", "evt_failed_again", 30, ref))
        // Many more events at the same instant push "evt_paid" out of the subscription's recent ids.
        for (let i = 0; i < recentEventLimit + 5; i++) {
          assert.strictEqual(yield* apply(event("PaymentFailed", `evt_retry_${i}`, 30, ref)), "unchanged")
        }
        assert.notInclude((yield* load(active.id)).recentEventIds, paid.eventId)
        assert.strictEqual(yield* apply(paid), "duplicate")
        assert.strictEqual((yield* load(active.id)).status, "past_due")
      }).pipe(provideRoster())
    )

    it.effect("the checkout event applied twice does not activate twice", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const again = yield* apply(
          event("PaymentSucceeded", "evt_checkout", 10, {
            subscriptionId: active.id,
            providerSubscriptionId: providerId
          })
        )
        assert.strictEqual(again, "duplicate")
        assert.deepStrictEqual(statuses(yield* load(active.id)), ["pending", "active"])
      }).pipe(provideRoster())
    )

    const concurrentFailures = Effect.gen(function* () {
      const active = yield* activeTeam
      const failure = event("PaymentFailed", "evt_fail", 20, { providerSubscriptionId: providerId })
      const outcomes = yield* Effect.all(
        Array.from({ length: 20 }, () => apply(failure)),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(outcomes.filter((outcome) => outcome === "applied").length, 1)
      assert.strictEqual(outcomes.filter((outcome) => outcome === "duplicate").length, 19)
      const after = yield* load(active.id)
      assert.strictEqual(after.status, "past_due")
      assert.deepStrictEqual(statuses(after), ["pending", "active", "past_due"])
      assert.strictEqual(after.version, active.version + 1)
      // The inbox keeps the outcome of the delivery that applied it, not a losing duplicate's.
      assert.strictEqual((yield* inboxEntry(failure.eventId)).outcome, "applied")
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
        const checkout = event("PaymentSucceeded", "evt_checkout", 10, {
          subscriptionId: pending.id,
          providerSubscriptionId: providerId
        })
        const outcomes = yield* Effect.all(
          Array.from({ length: 20 }, () => apply(checkout)),
          {
            concurrency: "unbounded"
          }
        )
        assert.deepStrictEqual(
          outcomes.filter((outcome) => outcome !== "duplicate"),
          ["applied"]
        )
        assert.deepStrictEqual(statuses(yield* load(pending.id)), ["pending", "active"])
      }).pipe(Effect.provide(interleavingStores), provideRoster())
    )

    it.effect("interleaved distinct events each apply once", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const ref = { providerSubscriptionId: providerId }
        // As many simultaneous events as the store's compare-and-set retries are sized for.
        const events = Array.from({ length: 5 }, (_, i) =>
          event(i % 2 === 0 ? "PaymentFailed" : "PaymentSucceeded", `evt_${i}`, 20, ref)
        )
        const outcomes = yield* Effect.all(events.map(apply), { concurrency: "unbounded" })
        assert.notInclude(outcomes, "duplicate")
        assert.notInclude(outcomes, "stale")
        const after = yield* load(active.id)
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
        const failure = event("PaymentFailed", "evt_fail", 20, { providerSubscriptionId: providerId })
        yield* apply(failure)
        yield* apply(failure)
        const entry = yield* inboxEntry(failure.eventId)
        assert.strictEqual(entry.eventType, "invoice.payment_failed")
        assert.strictEqual(entry.payload, JSON.stringify({ id: "evt_fail" }))
        assert.strictEqual(entry.outcome, "applied")
      }).pipe(provideRoster())
    )
  })

  describe("ordering", () => {
    it.effect("an older invoice.paid arriving after a newer payment failure is stale", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const ref = { providerSubscriptionId: providerId }
        assert.strictEqual(yield* apply(event("PaymentFailed", "evt_failed", 30, ref)), "applied")
        const before = yield* load(active.id)
        assert.strictEqual(yield* apply(event("PaymentSucceeded", "evt_paid_late", 25, ref)), "stale")
        const after = yield* load(active.id)
        assert.strictEqual(after.status, "past_due")
        assert.deepStrictEqual(statuses(after), statuses(before))
        assert.strictEqual(after.version, before.version)
      }).pipe(provideRoster())
    )

    it.effect("an event older than the checkout cannot move the subscription", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const outcome = yield* apply(
          event("SubscriptionCanceled", "evt_old", 5, { providerSubscriptionId: providerId })
        )
        assert.strictEqual(outcome, "stale")
        assert.strictEqual((yield* load(active.id)).status, "active")
      }).pipe(provideRoster())
    )

    it.effect("a stale event, once recorded, is not applied when redelivered", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const ref = { providerSubscriptionId: providerId }
        yield* apply(event("PaymentFailed", "evt_failed", 30, ref))
        const late = event("PaymentSucceeded", "evt_paid_late", 25, ref)
        assert.strictEqual(yield* apply(late), "stale")
        assert.notStrictEqual(yield* apply(late), "applied")
        assert.strictEqual((yield* load(active.id)).status, "past_due")
      }).pipe(provideRoster())
    )

    it.effect("an event at the same instant as the last applied one still applies", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const outcome = yield* apply(
          event("PaymentFailed", "evt_same_time", 10, { providerSubscriptionId: providerId })
        )
        assert.strictEqual(outcome, "applied")
        assert.strictEqual((yield* load(active.id)).status, "past_due")
      }).pipe(provideRoster())
    )
  })

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
        const after = yield* load(active.id)
        assert.strictEqual(after.status, "active")
        assert.strictEqual(after.version, active.version)
      }).pipe(provideRoster())
    )

    it.effect("an unknown own id falls back to the provider's subscription id", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const outcome = yield* apply(
          event("PaymentFailed", "evt_fallback", 20, {
            subscriptionId: "sub_unknown" as SubscriptionId,
            providerSubscriptionId: providerId
          })
        )
        assert.strictEqual(outcome, "applied")
        assert.strictEqual((yield* load(active.id)).status, "past_due")
      }).pipe(provideRoster())
    )

    it.effect("events reach the right subscription when there are several", () =>
      Effect.gen(function* () {
        const first = yield* activeTeam
        yield* TestClock.adjust("1 minute")
        const second = yield* subscribe(master, business)
        yield* apply(
          event("PaymentSucceeded", "evt_checkout_2", 70, {
            subscriptionId: second.id,
            providerSubscriptionId: "sub_provider_2"
          })
        )
        yield* apply(event("PaymentFailed", "evt_fail_2", 80, { providerSubscriptionId: "sub_provider_2" }))
        assert.strictEqual((yield* load(second.id)).status, "past_due")
        // The first was superseded by the second's activation and stays canceled.
        assert.strictEqual((yield* load(first.id)).status, "canceled")
      }).pipe(provideRoster())
    )
  })

  describe("status rules", () => {
    it.effect("canceled is terminal: a later success does not reactivate", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const ref = { providerSubscriptionId: providerId }
        yield* apply(event("SubscriptionCanceled", "evt_cancel", 20, ref))
        const canceled = yield* load(active.id)
        const outcome = yield* apply(event("PaymentSucceeded", "evt_paid", 30, ref))
        assert.notStrictEqual(outcome, "applied")
        const after = yield* load(active.id)
        assert.strictEqual(after.status, "canceled")
        assert.deepStrictEqual(statuses(after), statuses(canceled))
        const reported = yield* apply(
          event("SubscriptionStatusReported", "evt_status", 40, { ...ref, status: "active" })
        )
        assert.notStrictEqual(reported, "applied")
        assert.strictEqual((yield* load(active.id)).status, "canceled")
      }).pipe(provideRoster())
    )

    it.effect("a pending subscription can be canceled but not made past_due", () =>
      Effect.gen(function* () {
        const pending = yield* subscribe(master, team)
        const failed = yield* apply(event("PaymentFailed", "evt_fail", 10, { subscriptionId: pending.id }))
        assert.strictEqual(failed, "unchanged")
        assert.strictEqual((yield* load(pending.id)).status, "pending")
        const canceled = yield* apply(
          event("SubscriptionCanceled", "evt_cancel", 20, { subscriptionId: pending.id })
        )
        assert.strictEqual(canceled, "applied")
        assert.deepStrictEqual(statuses(yield* load(pending.id)), ["pending", "canceled"])
      }).pipe(provideRoster())
    )

    it.effect("activating a pending subscription cancels the previously active one (plan change)", () =>
      Effect.gen(function* () {
        const old = yield* activeTeam
        yield* TestClock.adjust("1 minute")
        const upgrade = yield* subscribe(master, business)
        assert.strictEqual((yield* load(old.id)).status, "active")
        const outcome = yield* apply(
          event("PaymentSucceeded", "evt_checkout_2", 70, {
            subscriptionId: upgrade.id,
            providerSubscriptionId: "sub_provider_2"
          })
        )
        assert.strictEqual(outcome, "applied")
        assert.strictEqual((yield* load(upgrade.id)).status, "active")
        const superseded = yield* load(old.id)
        assert.strictEqual(superseded.status, "canceled")
        assert.deepStrictEqual(statuses(superseded), ["pending", "active", "canceled"])
        const open = yield* (yield* SubscriptionStore).listOpen
        assert.deepStrictEqual(
          open.map((subscription) => subscription.id),
          [upgrade.id]
        )
        assert.strictEqual((yield* currentSubscription(master)).id, upgrade.id)
      }).pipe(provideRoster())
    )

    it.effect("a payment for an already active subscription does not cancel the others", () =>
      Effect.gen(function* () {
        const old = yield* activeTeam
        yield* TestClock.adjust("1 minute")
        const upgrade = yield* subscribe(master, business)
        // A renewal of the old subscription must not cancel the pending checkout.
        assert.strictEqual(
          yield* apply(event("PaymentSucceeded", "evt_renewal", 70, { providerSubscriptionId: providerId })),
          "unchanged"
        )
        assert.strictEqual((yield* load(upgrade.id)).status, "pending")
        assert.strictEqual((yield* load(old.id)).status, "active")
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
        const after = yield* load(pending.id)
        assert.strictEqual(after.status, status)
        assert.deepStrictEqual(statuses(after), [...history])
      }).pipe(provideRoster())
    )

    it.effect("SubscriptionStatusReported maps each status along the lifecycle", () =>
      Effect.gen(function* () {
        const active = yield* activeTeam
        const report = (id: string, second: number, status: SubscriptionStatus) =>
          apply(
            event("SubscriptionStatusReported", id, second, { providerSubscriptionId: providerId, status })
          )
        assert.strictEqual(yield* report("evt_a", 20, "past_due"), "applied")
        assert.strictEqual((yield* load(active.id)).status, "past_due")
        assert.strictEqual(yield* report("evt_b", 30, "active"), "applied")
        assert.strictEqual((yield* load(active.id)).status, "active")
        // "pending" is never reached again from active.
        assert.strictEqual(yield* report("evt_c", 40, "pending"), "unchanged")
        assert.strictEqual((yield* load(active.id)).status, "active")
        assert.strictEqual(yield* report("evt_d", 50, "canceled"), "applied")
        const after = yield* load(active.id)
        assert.deepStrictEqual(statuses(after), ["pending", "active", "past_due", "active", "canceled"])
      }).pipe(provideRoster())
    )
  })
})

describe("a delivery that stops between applying and completing", () => {
  /** An inbox whose first `complete` fails, as if the process died right after writing the effect. */
  const inboxFailingOnce = Layer.effect(
    PaymentInbox,
    Effect.map(makePaymentInbox, (inbox) => {
      let failures = 1
      return PaymentInbox.of({
        receive: inbox.receive,
        complete: (eventId, outcome, at) =>
          failures-- > 0 ? Effect.fail(new StoreUnavailable()) : inbox.complete(eventId, outcome, at)
      })
    })
  )

  it.effect("is repaired by the redelivery, which applies nothing twice and completes the inbox", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      const checkout = event("PaymentSucceeded", "evt_lost", 10, { subscriptionId: pending.id })
      const first = yield* Effect.flip(apply(checkout))
      assert.strictEqual(first._tag, "StoreUnavailable")
      assert.strictEqual((yield* load(pending.id)).status, "active")

      assert.strictEqual(yield* apply(checkout), "duplicate")
      assert.deepStrictEqual(statuses(yield* load(pending.id)), ["pending", "active"])
      assert.strictEqual((yield* inboxEntry(checkout.eventId)).outcome, "applied")
    }).pipe(Effect.provide(inboxFailingOnce), provideRoster())
  )
})
