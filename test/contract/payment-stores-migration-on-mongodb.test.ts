// Documents the hand-written stores wrote, read through the declared resources: each old store's
// write copied here as the raw document it inserted, under the indexes it made.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { InboxEntry, PaymentEventId, PaymentInbox, SubscriptionStore } from "../../core/index.ts"
import { assertEquals, at, inboxEntryOf, nextVersion, subscriptionOf, valueOf } from "../support/contract.ts"
import { scratch, storesOn, withClient } from "../support/mongo-scratch.ts"

type Stored = { _id: string } & Record<string, unknown>

const date = (second: number) => new Date(second * 1000)

const received = new InboxEntry({ ...inboxEntryOf("evt_old", 10), outcome: "applied", completedAt: at(11) })
const active = subscriptionOf("sub_old", 20, "active", {
  providerSubscriptionId: "sub_provider_old",
  recentEventIds: [PaymentEventId.make("evt_old")],
  lastEventAt: at(10),
  version: 2
})

/** What the hand-written inbox and subscription store inserted for `received` and `active`. */
const writtenByHand = (database: string) =>
  withClient(async (client) => {
    const db = client.db(database)
    await db.collection<Stored>("payment_events").insertOne({
      _id: "evt_old",
      eventType: "invoice.paid",
      payload: JSON.stringify({ id: "evt_old" }),
      receivedAt: date(10),
      outcome: "applied",
      completedAt: date(11)
    })
    const subscriptions = db.collection<Stored>("subscriptions")
    await subscriptions.createIndex({ providerSubscriptionId: 1 }, { name: "by_provider_subscription" })
    await subscriptions.createIndex(
      { organizationId: 1, createdAt: -1, _id: -1 },
      { name: "newest_first_in_organization" }
    )
    await subscriptions.insertOne({
      _id: "sub_old",
      organizationId: "default",
      planId: "team",
      planName: "Team",
      price: { amountMinor: 1999, currency: "EUR" },
      status: "active",
      history: [
        { status: "pending", at: date(20) },
        { status: "active", at: date(21) }
      ],
      providerSubscriptionId: "sub_provider_old",
      lastEventAt: date(10),
      recentEventIds: ["evt_old"],
      version: 2,
      createdAt: date(20),
      updatedAt: date(20),
      outbox: []
    })
  })

describe("the payment inbox's and subscriptions' documents written by hand, on MongoDB", () => {
  it.effect("are read, found and changed through their declarations, under the kit's indexes", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        yield* writtenByHand(database)
        yield* Effect.gen(function* () {
          const inbox = yield* PaymentInbox
          assertEquals(valueOf(yield* inbox.receive(inboxEntryOf("evt_old", 99)), "the old entry"), received)
          assert.isTrue(Option.isNone(yield* inbox.receive(inboxEntryOf("evt_new", 99))))

          const store = yield* SubscriptionStore
          assertEquals(valueOf(yield* store.findById(active.id)), active)
          assertEquals(valueOf(yield* store.findByProviderSubscriptionId("sub_provider_old")), active)
          assert.deepStrictEqual(
            (yield* store.listOpen).map((subscription) => subscription.id),
            [active.id]
          )
          assert.isFalse(yield* store.replace(nextVersion(nextVersion(active, {}), { status: "canceled" })))
          const pastDue = nextVersion(active, { status: "past_due" })
          assert.isTrue(yield* store.replace(pastDue))
          assertEquals(valueOf(yield* store.findById(active.id)), pastDue)
        }).pipe(Effect.provide(storesOn(database)))

        const indexes = yield* withClient((client) =>
          client.db(database).collection("subscriptions").listIndexes().toArray()
        )
        assert.sameMembers(
          indexes.map((index) => String(index.name)),
          ["_id_", "by_providerSubscriptionId_createdAt", "by_organizationId_createdAt"]
        )
      })
    )
  )
})
