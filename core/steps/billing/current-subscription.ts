import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import { isInForce } from "../../model/subscription.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"

/** The organisation's subscription: the one in force if there is one, else the newest (pending or canceled). */
export const findCurrentSubscription = Effect.gen(function* () {
  const store = yield* SubscriptionStore
  const inForce = (yield* store.listOpen).find(isInForce)
  if (inForce !== undefined) return inForce
  const latest = yield* store.latest
  if (Option.isNone(latest)) return yield* new NotFound({ entity: "subscription", id: "current" })
  return latest.value
})
