import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Option, Schema } from "effect"
import { TestClock } from "effect/testing"
import {
  type AuditLog,
  acknowledgePaymentEvent,
  checkReadiness,
  currentSubscription,
  type IdGenerator,
  IgnoredPaymentEvent,
  InboxEntry,
  listPlans,
  type MemberStore,
  PaymentEvent,
  PaymentEventId,
  PaymentInbox,
  PaymentOutcome,
  type PaymentProvider,
  PaymentReceipt,
  StoreHealth,
  StoreUnavailable,
  SubscribeInput,
  Subscription,
  SubscriptionStore,
  subscribe
} from "../../core/index.ts"
import { assertMissingPermission, assertNotFound } from "../support/assertions.ts"
import { theEntryOf } from "../support/audit.ts"
import {
  activeTeam,
  apply,
  byProviderId,
  event,
  providerId,
  teamCheckout
} from "../support/payment-events.ts"
import { actorWith, master, provideRoster, testPlans } from "../support/roster.ts"
import { business, loadSubscription, statusOf, team } from "../support/subscriptions.ts"

/** What the inbox holds of `eventId`: its outcome once completed. */
const inboxOutcomeOf = (eventId: string) =>
  Effect.gen(function* () {
    const earlier = yield* (yield* PaymentInbox).receive(
      new InboxEntry({
        eventId: PaymentEventId.make(eventId),
        eventType: "probe",
        payload: "{}",
        receivedAt: yield* DateTime.now
      })
    )
    return Option.getOrElse(earlier, () => assert.fail(`no delivery of ${eventId}`)).outcome
  })

const ignored = (eventId: string) =>
  acknowledgePaymentEvent({
    eventId: PaymentEventId.make(eventId),
    eventType: "customer.created",
    payload: "{}"
  })

/** The webhook answers a delivery with its outcome: each outcome a use case gives must be one it can encode. */
const answerable = (outcome: string) => {
  assert.isTrue(Schema.is(PaymentOutcome)(outcome), outcome)
  return outcome
}

describe("acknowledgePaymentEvent", () => {
  it.effect("records an event Roster does not act on as ignored, and its redelivery as a duplicate", () =>
    Effect.gen(function* () {
      assert.strictEqual(answerable(yield* ignored("evt_other")), "ignored")
      assert.strictEqual(yield* inboxOutcomeOf("evt_other"), "ignored")
      assert.strictEqual(answerable(yield* ignored("evt_other")), "duplicate")
    }).pipe(provideRoster())
  )

  it.effect("finishes a delivery an earlier attempt received but never completed", () =>
    Effect.gen(function* () {
      yield* (yield* PaymentInbox).receive(
        new InboxEntry({
          eventId: PaymentEventId.make("evt_cut"),
          eventType: "customer.created",
          payload: "{}",
          receivedAt: yield* DateTime.now
        })
      )
      assert.strictEqual(yield* ignored("evt_cut"), "ignored")
      assert.strictEqual(yield* inboxOutcomeOf("evt_cut"), "ignored")
    }).pipe(provideRoster())
  )
})

describe("applyPaymentEvent, as the inbox records it", () => {
  it.effect("keeps each delivery's outcome; one already applied to the subscription counts as applied", () =>
    Effect.gen(function* () {
      const active = yield* activeTeam
      assert.strictEqual(yield* inboxOutcomeOf("evt_checkout"), "applied")
      answerable(yield* apply(event("PaymentSucceeded", "evt_again", 20, byProviderId)))
      assert.strictEqual(yield* inboxOutcomeOf("evt_again"), "unchanged")
      answerable(yield* apply(event("PaymentFailed", "evt_old", 5, byProviderId)))
      assert.strictEqual(yield* inboxOutcomeOf("evt_old"), "stale")
      answerable(
        yield* apply(event("PaymentFailed", "evt_lost", 30, { providerSubscriptionId: "sub_unknown" }))
      )
      assert.strictEqual(yield* inboxOutcomeOf("evt_lost"), "unmatched")
      // Applied to the subscription by a delivery that stopped before completing its inbox entry.
      const checkout = teamCheckout(active)
      const redelivered = { ...checkout, eventId: PaymentEventId.make("evt_checkout_copy") }
      const subscriptions = yield* SubscriptionStore
      const current = yield* loadSubscription(active.id)
      yield* subscriptions.replace(
        new Subscription({
          ...current,
          recentEventIds: [...current.recentEventIds, redelivered.eventId],
          version: current.version + 1
        })
      )
      assert.strictEqual(answerable(yield* apply(redelivered)), "duplicate")
      assert.strictEqual(yield* inboxOutcomeOf("evt_checkout_copy"), "applied")
    }).pipe(provideRoster())
  )

  it.effect("an event naming no subscription matches none, not one the provider has no id for yet", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      assert.strictEqual(yield* apply(event("PaymentSucceeded", "evt_nameless", 20, {})), "unmatched")
      assert.strictEqual(yield* statusOf(pending.id), "pending")
    }).pipe(provideRoster())
  )

  it.effect("a past-due subscription can be canceled by the provider", () =>
    Effect.gen(function* () {
      const active = yield* activeTeam
      yield* apply(event("PaymentFailed", "evt_failed", 20, byProviderId))
      assert.strictEqual(yield* apply(event("SubscriptionCanceled", "evt_gone", 30, byProviderId)), "applied")
      assert.strictEqual(yield* statusOf(active.id), "canceled")
    }).pipe(provideRoster())
  )
})

describe("a subscription write that keeps losing the race", () => {
  const losing = (onReread: "found" | "vanished") =>
    Effect.gen(function* () {
      const store = yield* SubscriptionStore
      const attempts = { count: 0 }
      const contended = SubscriptionStore.of({
        ...store,
        replace: () =>
          Effect.sync(() => {
            attempts.count++
            return false
          }),
        // The event finds its subscription; only the read again after a lost write may miss it.
        findById: (id) =>
          onReread === "vanished" && attempts.count > 0 ? Effect.succeed(Option.none()) : store.findById(id)
      })
      return { attempts, contended }
    })

  it.effect("gives up as unavailable after 25 attempts, leaving the subscription as it was", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      const { attempts, contended } = yield* losing("found")
      const error = yield* Effect.flip(
        Effect.provideService(apply(teamCheckout(pending)), SubscriptionStore, contended)
      )
      assert.instanceOf(error, StoreUnavailable)
      assert.strictEqual(attempts.count, 25)
      assert.strictEqual(yield* statusOf(pending.id), "pending")
    }).pipe(provideRoster())
  )

  it.effect("a subscription gone from under the write is a defect, not an answer", () =>
    Effect.gen(function* () {
      const pending = yield* subscribe(master, team)
      const { contended } = yield* losing("vanished")
      const exit = yield* Effect.exit(
        Effect.provideService(apply(teamCheckout(pending)), SubscriptionStore, contended)
      )
      assert.isTrue(Exit.hasDies(exit))
      assert.include(String(Exit.isFailure(exit) ? exit.cause : ""), `Subscription ${pending.id} vanished`)
    }).pipe(provideRoster())
  )
})

describe("superseding", () => {
  it.effect("an older subscription canceled meanwhile by the provider is left as the provider left it", () =>
    Effect.gen(function* () {
      const older = yield* subscribe(master, team)
      yield* TestClock.adjust("1 minute")
      const store = yield* SubscriptionStore
      const cancelOlder = Effect.orDie(
        Effect.provide(
          apply(event("SubscriptionCanceled", "evt_abandoned", 30, { subscriptionId: older.id })),
          yield* Effect.context<
            AuditLog | IdGenerator | MemberStore | PaymentInbox | PaymentProvider | SubscriptionStore
          >()
        )
      )
      let reads = 0
      // The provider cancels the older one between the newer subscribe's read of the open ones and its writes.
      const racing = SubscriptionStore.of({
        ...store,
        listOpen: Effect.tap(store.listOpen, () => (++reads === 2 ? cancelOlder : Effect.void))
      })
      yield* Effect.provideService(subscribe(master, business), SubscriptionStore, racing)
      const after = yield* loadSubscription(older.id)
      assert.strictEqual(after.status, "canceled")
      assert.strictEqual(after.version, older.version + 1, "written once, by the provider's event")
    }).pipe(provideRoster())
  )
})

describe("the audit entries of the subscription", () => {
  it.effect("a subscribe records the plan and status; the provider's activation records what it set", () =>
    Effect.gen(function* () {
      const created = yield* theEntryOf(subscribe(master, team))
      assert.strictEqual(created.entry.action, "subscription.created")
      assert.deepStrictEqual(created.entry.actor, { kind: "master" })
      assert.deepStrictEqual(created.entry.target, { type: "subscription", id: created.result.id })
      assert.deepStrictEqual(created.entry.changes, { planId: [null, "team"], status: [null, "pending"] })
      assert.deepStrictEqual(created.result.recentEventIds, [], "no provider event applied yet")
      const activated = yield* theEntryOf(apply(teamCheckout(created.result)))
      assert.strictEqual(activated.entry.action, "subscription.updated")
      assert.deepStrictEqual(activated.entry.actor, { kind: "provider" })
      assert.deepStrictEqual(activated.entry.changes, {
        status: ["pending", "active"],
        providerSubscriptionId: [null, providerId],
        providerCustomerId: [null, "cus_1"]
      })
    }).pipe(provideRoster())
  )
})

describe("reads", () => {
  it.effect("the plan catalog, for those who may read billing", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* listPlans(master), testPlans)
      const reader = yield* actorWith("reader", ["team.read"])
      assertMissingPermission(yield* Effect.flip(listPlans(reader.principal)), "billing.read")
    }).pipe(provideRoster())
  )

  it.effect("no current subscription is NotFound, named as the current one", () =>
    Effect.gen(function* () {
      assertNotFound(yield* Effect.flip(currentSubscription(master)), "subscription", "current")
    }).pipe(provideRoster())
  )

  it.effect("readiness is the store's answer", () =>
    Effect.gen(function* () {
      yield* checkReadiness()
      const down = yield* Effect.flip(
        Effect.provideService(checkReadiness(), StoreHealth, { ping: Effect.fail(new StoreUnavailable()) })
      )
      assert.instanceOf(down, StoreUnavailable)
    }).pipe(provideRoster())
  )
})

describe("billing schemas", () => {
  const at = "1970-01-01T00:00:20.000Z"
  it("decode each kind of provider event, and refuse an unknown kind", () => {
    const common = { eventId: "evt_1", occurredAt: at, providerSubscriptionId: "sub_1" }
    const decode = Schema.decodeUnknownExit(Schema.toCodecJson(PaymentEvent))
    for (const tag of ["PaymentSucceeded", "PaymentFailed", "SubscriptionCanceled"]) {
      const decoded = decode({ _tag: tag, ...common })
      assert.isTrue(Exit.isSuccess(decoded) && decoded.value._tag === tag, tag)
    }
    const reported = decode({ _tag: "SubscriptionStatusReported", ...common, status: "past_due" })
    assert.isTrue(Exit.isSuccess(reported) && reported.value._tag === "SubscriptionStatusReported")
    assert.isTrue(Exit.isFailure(decode({ _tag: "SubscriptionStatusReported", ...common, status: "lost" })))
    assert.isTrue(Exit.isFailure(decode({ _tag: "SomethingElse", ...common })))
    const { eventId: _, ...anonymous } = common
    assert.isTrue(
      Exit.isFailure(decode({ _tag: "PaymentSucceeded", ...anonymous })),
      "an event without its id"
    )
  })

  it("decode what the webhook hands over of a delivery, and refuse it without its payload", () => {
    const receipt = { eventType: "invoice.paid", payload: "{}" }
    assert.deepStrictEqual(Schema.decodeUnknownSync(PaymentReceipt)(receipt), receipt)
    assert.isTrue(Exit.isFailure(Schema.decodeUnknownExit(PaymentReceipt)({ eventType: "invoice.paid" })))
    const ignoredEvent = { eventId: "evt_1", eventType: "customer.created", payload: "{}" }
    assert.deepStrictEqual<unknown>(Schema.decodeUnknownSync(IgnoredPaymentEvent)(ignoredEvent), ignoredEvent)
    assert.isTrue(
      Exit.isFailure(Schema.decodeUnknownExit(IgnoredPaymentEvent)({ ...ignoredEvent, eventId: "" }))
    )
  })

  it("decode a subscribe request and refuse one without a price", () => {
    const decode = Schema.decodeUnknownExit(SubscribeInput)
    assert.isTrue(Exit.isSuccess(decode(team)))
    assert.isTrue(Exit.isFailure(decode({ planId: "team", planName: "Team" })))
  })
})
