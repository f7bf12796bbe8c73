import { Effect } from "effect"
import { DeliveryPolicy } from "../../ports/delivery-policy.ts"
import { fanOutEvents } from "../../steps/events/fan-out-events.ts"
import { sendDueDeliveries } from "../../steps/events/send-due-deliveries.ts"

/**
 * One round of the sender: the record's new entries made deliveries, then due ones tried, at most
 * `limit` of each (the policy's batch when absent: a caller yielding to requests asks for fewer).
 * Answers how many of each, so that the caller goes on at once while there is work.
 */
export const deliverEvents = Effect.fnUntraced(function* (limit?: number) {
  const batch = limit ?? (yield* DeliveryPolicy).batchSize
  const fannedOut = yield* fanOutEvents(batch)
  const sent = yield* sendDueDeliveries(batch)
  return { fannedOut, sent }
})
