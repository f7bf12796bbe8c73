import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { InboxEntry, PaymentEventId, PaymentInbox, StoreHealth } from "../../core/index.ts"
import { assertEquals, at, inboxEntryOf, inParallel, valueOf } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

describe.each(storeKinds)("PaymentInbox on %s", (_, stores) => {
  it.effect("the first receive of an event id is none, later ones return the first entry", () =>
    Effect.gen(function* () {
      const inbox = yield* PaymentInbox
      const first = inboxEntryOf("evt_1", 10)
      assert.isTrue(Option.isNone(yield* inbox.receive(first)))
      const redelivery = new InboxEntry({ ...inboxEntryOf("evt_1", 20), eventType: "other", payload: "{}" })
      assertEquals(valueOf(yield* inbox.receive(redelivery), "the earlier entry"), first)
      // The redelivery did not overwrite it.
      assertEquals(valueOf(yield* inbox.receive(redelivery)), first)
      // Another event id is another entry.
      assert.isTrue(Option.isNone(yield* inbox.receive(inboxEntryOf("evt_2", 30))))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("20 parallel receives of one event id: exactly one is none, the others see its entry", () =>
    Effect.gen(function* () {
      const inbox = yield* PaymentInbox
      const deliveries = Array.from(
        { length: 20 },
        (_, i) => new InboxEntry({ ...inboxEntryOf("evt_race", i), payload: `delivery ${i}` })
      )
      const answers = yield* inParallel(20, (i) => inbox.receive(deliveries[i] ?? inboxEntryOf("evt_race")))
      const firsts = answers.flatMap((answer, i) => (Option.isNone(answer) ? [i] : []))
      assert.lengthOf(firsts, 1)
      const winner = deliveries[firsts[0] ?? -1]
      for (const answer of answers.filter(Option.isSome)) assertEquals(answer.value, winner)
      assertEquals(valueOf(yield* inbox.receive(inboxEntryOf("evt_race", 99))), winner)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("complete records the outcome and when, and keeps the rest of the entry", () =>
    Effect.gen(function* () {
      const inbox = yield* PaymentInbox
      const entry = inboxEntryOf("evt_1", 10)
      yield* inbox.receive(entry)
      yield* inbox.complete(entry.eventId, "stale", at(12))
      const completed = valueOf(yield* inbox.receive(inboxEntryOf("evt_1", 20)))
      assertEquals(completed, new InboxEntry({ ...entry, outcome: "stale", completedAt: at(12) }))

      // Completing again (a redelivery that finished the job) records the latest outcome.
      yield* inbox.complete(entry.eventId, "applied", at(15))
      const again = valueOf(yield* inbox.receive(inboxEntryOf("evt_1", 20)))
      assert.strictEqual(again.outcome, "applied")
      assertEquals(again.completedAt, at(15))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("completing an event never received creates no entry", () =>
    Effect.gen(function* () {
      const inbox = yield* PaymentInbox
      yield* inbox.complete(PaymentEventId.make("evt_unknown"), "unmatched", at(1))
      assert.isTrue(Option.isNone(yield* inbox.receive(inboxEntryOf("evt_unknown", 2))))
    }).pipe(Effect.provide(stores()))
  )
})

describe.each(storeKinds)("StoreHealth on %s", (_, stores) => {
  it.effect("ping succeeds while the store answers, however often it is asked", () =>
    Effect.gen(function* () {
      const health = yield* StoreHealth
      assert.isTrue(Exit.isSuccess(yield* Effect.exit(health.ping)))
      const pings = yield* inParallel(5, () => Effect.exit(health.ping))
      assert.isTrue(pings.every(Exit.isSuccess))
    }).pipe(Effect.provide(stores()))
  )
})
