import { assert } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import {
  applyPaymentEvent,
  type PaymentEvent,
  PaymentEventId,
  type Subscription,
  type SubscriptionId,
  type SubscriptionStatus,
  subscribe
} from "../../core/index.ts"
import { master } from "./roster.ts"
import { loadSubscription, team } from "./subscriptions.ts"

type Tag = PaymentEvent["_tag"]

/** The references a provider event may carry to name its subscription. */
interface Refs {
  readonly subscriptionId?: SubscriptionId
  readonly providerSubscriptionId?: string
  readonly providerCustomerId?: string
  readonly status?: SubscriptionStatus
  readonly cancelAt?: DateTime.Utc
}

/** The provider's event type for each event, as the webhook would have received it. */
const receipts: Record<Tag, string> = {
  PaymentSucceeded: "invoice.paid",
  PaymentFailed: "invoice.payment_failed",
  SubscriptionCanceled: "customer.subscription.deleted",
  CheckoutExpired: "checkout.session.expired",
  SubscriptionStatusReported: "customer.subscription.updated"
}

/** A provider event created `second` seconds after the epoch. */
export const event = (tag: Tag, eventId: string, second: number, refs: Refs): PaymentEvent => {
  const common = {
    eventId: PaymentEventId.make(eventId),
    occurredAt: DateTime.makeUnsafe(second * 1000),
    ...(refs.subscriptionId === undefined ? {} : { subscriptionId: refs.subscriptionId }),
    ...(refs.providerSubscriptionId === undefined
      ? {}
      : { providerSubscriptionId: refs.providerSubscriptionId }),
    ...(refs.providerCustomerId === undefined ? {} : { providerCustomerId: refs.providerCustomerId })
  }
  return tag === "SubscriptionStatusReported"
    ? {
        _tag: tag,
        ...common,
        status: refs.status ?? "active",
        ...(refs.cancelAt === undefined ? {} : { cancelAt: refs.cancelAt })
      }
    : { _tag: tag, ...common }
}

export const apply = (paymentEvent: PaymentEvent) =>
  applyPaymentEvent(paymentEvent, {
    eventType: receipts[paymentEvent._tag],
    payload: JSON.stringify({ id: paymentEvent.eventId })
  })

/** The provider's id for the subscription `activeTeam` activates. */
export const providerId = "sub_provider_1"

/** Names the subscription by the provider's id alone, as every event after the checkout does. */
export const byProviderId = { providerSubscriptionId: providerId }

/** The checkout of a pending Team subscription at second 10: it names our id and the provider's ids. */
export const teamCheckout = (pending: Subscription) =>
  event("PaymentSucceeded", "evt_checkout", 10, {
    subscriptionId: pending.id,
    providerSubscriptionId: providerId,
    providerCustomerId: "cus_1"
  })

/** A pending Team subscription, activated by `teamCheckout`. */
export const activeTeam = Effect.gen(function* () {
  const pending = yield* subscribe(master, team)
  assert.strictEqual(yield* apply(teamCheckout(pending)), "applied")
  return yield* loadSubscription(pending.id)
})

/** Applies `paymentEvent` to a fresh `activeTeam`; returns it, the outcome and the subscription after. */
export const applyToActiveTeam = Effect.fnUntraced(function* (paymentEvent: PaymentEvent) {
  const active = yield* activeTeam
  const outcome = yield* apply(paymentEvent)
  return { active, outcome, after: yield* loadSubscription(active.id) }
})
