// Documents the hand-written stores wrote, read through the declared resources: each old store's
// write copied here as the raw document it inserted, under the indexes it made.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  IdempotencyStore,
  InboxEntry,
  PaymentEventId,
  PaymentInbox,
  SubscriptionStore
} from "../../core/index.ts"
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

/** Far enough ahead that no TTL monitor deletes the claims while the test runs. */
const kept = new Date(Date.UTC(2099, 0, 1))

/** A claim made at `second` by the request with `requestHash`, as the idempotency store is asked. */
const claim = (requestHash: string, second: number) => ({
  requestHash,
  requestKey: `${requestHash}@${second}`,
  now: at(second),
  expiresAt: at(second + 100),
  leaseUntil: at(second + 10)
})

/**
 * What the hand-written inbox, subscription and idempotency stores inserted for `received`,
 * `active`, and three claims: one answered, one whose request stopped, one made before leases.
 */
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
    await db.collection<Stored>("idempotency_keys").insertMany([
      {
        _id: JSON.stringify(["master", "answered"]),
        requestHash: "hash-1",
        requestKey: "hash-1@0",
        expiresAt: kept,
        leaseUntil: date(10),
        response: { status: 201, headers: [{ name: "content-type", value: "application/json" }], body: "{}" }
      },
      {
        _id: JSON.stringify(["master", "stopped"]),
        requestHash: "hash-1",
        requestKey: "hash-1@0",
        expiresAt: kept,
        leaseUntil: date(10)
      },
      { _id: JSON.stringify(["master", "before leases"]), requestHash: "hash-1", expiresAt: kept }
    ])
  })

describe("the payment inbox's, subscriptions' and idempotency keys' documents written by hand, on MongoDB", () => {
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

          const keys = yield* IdempotencyStore
          const replay = yield* keys.start({ scope: "master", key: "answered" }, claim("hash-1", 50))
          assert.deepStrictEqual(
            replay._tag === "Replay" ? [replay.response.status, replay.response.body] : replay,
            [201, "{}"]
          )
          const stopped = { scope: "master", key: "stopped" }
          assert.deepStrictEqual(yield* keys.start(stopped, claim("hash-2", 50)), { _tag: "Reused" })
          assert.deepStrictEqual(yield* keys.start(stopped, claim("hash-1", 50)), {
            _tag: "Resume",
            requestKey: "hash-1@0"
          })
          assert.deepStrictEqual(yield* keys.start(stopped, claim("hash-1", 51)), { _tag: "InProgress" })
          const beforeLeases = { scope: "master", key: "before leases" }
          assert.deepStrictEqual(yield* keys.start(beforeLeases, claim("hash-1", 50)), { _tag: "InProgress" })
          yield* keys.finish(
            beforeLeases,
            replay._tag === "Replay" ? replay.response : assert.fail("no replay")
          )
          assert.strictEqual((yield* keys.start(beforeLeases, claim("hash-1", 60)))._tag, "Replay")
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
