import { Schema } from "effect"
import { PaymentEventId, SubscriptionId } from "./ids.ts"
import { SubscriptionStatus } from "./subscription.ts"

/**
 * A provider event translated at the adapter edge. `subscriptionId` is ours (the
 * checkout reference); `providerSubscriptionId` is the provider's, the only
 * reference later invoices carry.
 */
const common = {
  eventId: PaymentEventId,
  occurredAt: Schema.DateTimeUtc,
  subscriptionId: Schema.optional(SubscriptionId),
  providerSubscriptionId: Schema.optional(Schema.String),
  providerCustomerId: Schema.optional(Schema.String),
  /** When the provider says the subscription ends, for one set to cancel at its period's end. */
  cancelAt: Schema.optional(Schema.DateTimeUtc)
}

export const PaymentSucceeded = Schema.TaggedStruct("PaymentSucceeded", common)
export const PaymentFailed = Schema.TaggedStruct("PaymentFailed", common)
export const SubscriptionCanceled = Schema.TaggedStruct("SubscriptionCanceled", common)
/** The checkout was abandoned: it cancels a subscription still waiting for it, and nothing else. */
export const CheckoutExpired = Schema.TaggedStruct("CheckoutExpired", common)
/** The provider's own view of the subscription. */
export const SubscriptionStatusReported = Schema.TaggedStruct("SubscriptionStatusReported", {
  ...common,
  status: SubscriptionStatus
})

export const PaymentEvent = Schema.Union([
  PaymentSucceeded,
  PaymentFailed,
  SubscriptionCanceled,
  CheckoutExpired,
  SubscriptionStatusReported
])
export type PaymentEvent = typeof PaymentEvent.Type

export const targetStatus = (event: PaymentEvent): SubscriptionStatus => {
  switch (event._tag) {
    case "PaymentSucceeded":
      return "active"
    case "PaymentFailed":
      return "past_due"
    case "SubscriptionCanceled":
    case "CheckoutExpired":
      return "canceled"
    case "SubscriptionStatusReported":
      return event.status
  }
}

/** `ignored`: a verified event of a type Roster does not act on, recorded and acknowledged. */
export const PaymentOutcome = Schema.Literals([
  "applied",
  "unchanged",
  "stale",
  "duplicate",
  "unmatched",
  "ignored"
])
export type PaymentOutcome = typeof PaymentOutcome.Type

/** An inbox entry: every verified delivery, kept with its raw payload for audit and replay. */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class InboxEntry extends Schema.Class<InboxEntry>("roster/InboxEntry")({
  eventId: PaymentEventId,
  eventType: Schema.String,
  payload: Schema.String,
  receivedAt: Schema.DateTimeUtc,
  outcome: Schema.optional(PaymentOutcome),
  completedAt: Schema.optional(Schema.DateTimeUtc)
}) {}
