import { Effect } from "effect"
import { fanOutEvents } from "./fan-out-events.ts"
import { sendDueDeliveries } from "./send-due-deliveries.ts"

/**
 * One round of the sender: the record's new entries made deliveries, then a batch of due ones
 * tried. Answers whether either batch was full, so that the caller goes on at once.
 */
export const deliverEvents = Effect.gen(function* () {
  const fannedOut = yield* fanOutEvents
  const sent = yield* sendDueDeliveries
  return { fannedOut, sent }
})
