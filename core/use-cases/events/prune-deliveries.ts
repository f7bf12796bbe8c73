import { DateTime, Duration, Effect } from "effect"
import { DeliveryStore } from "../../ports/delivery-store.ts"

/** How long an ended delivery stays listed, for an administrator looking back. */
export const deliveryRetention = Duration.days(30)

/** Deletes the deliveries that ended longer ago than the retention. */
export const pruneDeliveries = Effect.gen(function* () {
  const before = DateTime.subtractDuration(yield* DateTime.now, deliveryRetention)
  yield* (yield* DeliveryStore).prune(before)
})
