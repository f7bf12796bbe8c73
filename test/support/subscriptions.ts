import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import { type Subscription, SubscriptionStore } from "../../core/index.ts"

/** Subscribe requests for the plans of `testPlans`, as a client would send them. */
export const free = { planId: "free", planName: "Free", price: 0 }
export const team = { planId: "team", planName: "Team", price: 19.99 }
export const business = { planId: "business", planName: "Business", price: 99 }
export const seats = { planId: "seats", planName: "Seats", price: 5 }

/** The stored subscription `id`; a missing one fails the test rather than the lookup. */
export const loadSubscription = (id: Subscription["id"]) =>
  Effect.gen(function* () {
    const found = yield* (yield* SubscriptionStore).findById(id)
    assert.isTrue(Option.isSome(found), `subscription ${id} exists`)
    return Option.getOrThrow(found)
  })

export const statusOf = (id: Subscription["id"]) =>
  Effect.map(loadSubscription(id), (subscription) => subscription.status)

/** Every status the subscription went through, oldest first. */
export const statusHistory = (subscription: Subscription) =>
  subscription.history.map((change) => change.status)

export const openSubscriptions = Effect.flatMap(SubscriptionStore, (store) => store.listOpen)

export const subscriptionIds = (subscriptions: ReadonlyArray<Subscription>) =>
  subscriptions.map((subscription) => subscription.id)
