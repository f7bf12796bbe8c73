import { DateTime, Effect, Option, Schema } from "effect"
import { PaymentEventId } from "../../model/ids.ts"
import { InboxEntry } from "../../model/payment-event.ts"
import { PaymentInbox } from "../../ports/payment-inbox.ts"

export const IgnoredPaymentEvent = Schema.Struct({
  eventId: PaymentEventId,
  eventType: Schema.String,
  payload: Schema.String
})
export type IgnoredPaymentEvent = typeof IgnoredPaymentEvent.Type

/**
 * Records a verified event Roster does not act on, so the inbox holds every delivery for audit
 * and replay; it changes nothing else. A redelivery is recognised as a duplicate.
 */
export const acknowledgePaymentEvent = Effect.fnUntraced(function* (event: IgnoredPaymentEvent) {
  const inbox = yield* PaymentInbox
  const now = yield* DateTime.now
  const earlier = yield* inbox.receive(new InboxEntry({ ...event, receivedAt: now }))
  if (Option.isSome(earlier) && earlier.value.outcome !== undefined) return "duplicate" as const
  yield* inbox.complete(event.eventId, "ignored", now)
  return "ignored" as const
})
