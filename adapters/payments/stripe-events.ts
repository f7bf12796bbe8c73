import { DateTime, Option, Schema } from "effect"
import { type PaymentEvent, PaymentEventId, type SubscriptionStatus } from "../../core/index.ts"
import { endOf, idOf, invoiceSubscription, ourReference, ourReferenceIn } from "./stripe-objects.ts"

/** The event types Roster acts on; every other type is acknowledged without being read further. */
export const actedOnTypes: ReadonlySet<string> = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.expired",
  "invoice.paid",
  "invoice.payment_failed",
  "customer.subscription.updated",
  "customer.subscription.deleted"
])

export const StripeEvent = Schema.Struct({
  id: PaymentEventId,
  type: Schema.String,
  /** Seconds since the epoch, bounded to what a date can hold. */
  created: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 8_640_000_000_000 })),
  data: Schema.Struct({ object: Schema.Record(Schema.String, Schema.Unknown) })
})
export type StripeEvent = typeof StripeEvent.Type

const statuses: Readonly<Record<string, SubscriptionStatus>> = {
  active: "active",
  trialing: "active",
  past_due: "past_due",
  unpaid: "past_due",
  canceled: "canceled",
  incomplete_expired: "canceled"
}

const defined = <A extends object>(fields: A) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as A

/**
 * The events Roster acts on, translated into domain events; every other type, and a
 * checkout still waiting for its payment, is `none`: acknowledged and ignored.
 */
export const translateStripeEvent = (event: StripeEvent): Option.Option<PaymentEvent> => {
  const object = event.data.object
  const common = { eventId: event.id, occurredAt: DateTime.makeUnsafe(event.created * 1000) }
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      if (object.payment_status === "unpaid") return Option.none()
      return Option.some({
        _tag: "PaymentSucceeded",
        ...common,
        ...defined({
          subscriptionId: ourReference(object.client_reference_id),
          providerSubscriptionId: idOf(object.subscription),
          providerCustomerId: idOf(object.customer)
        })
      })
    }
    case "checkout.session.expired":
      return Option.some({
        _tag: "CheckoutExpired",
        ...common,
        ...defined({ subscriptionId: ourReference(object.client_reference_id) })
      })
    case "invoice.paid":
    case "invoice.payment_failed":
      return Option.some({
        _tag: event.type === "invoice.paid" ? "PaymentSucceeded" : "PaymentFailed",
        ...common,
        ...defined({ ...invoiceSubscription(object), providerCustomerId: idOf(object.customer) })
      })
    case "customer.subscription.updated": {
      const status = typeof object.status === "string" ? statuses[object.status] : undefined
      if (status === undefined) return Option.none()
      const ending =
        status !== "canceled" && (object.cancel_at_period_end === true || object.cancel_at != null)
      return Option.some({
        _tag: "SubscriptionStatusReported",
        status: ending ? "canceling" : status,
        ...common,
        ...defined({
          cancelAt: ending ? endOf(object) : undefined,
          subscriptionId: ourReferenceIn(object.metadata),
          providerSubscriptionId: idOf(object.id),
          providerCustomerId: idOf(object.customer)
        })
      })
    }
    case "customer.subscription.deleted":
      return Option.some({
        _tag: "SubscriptionCanceled",
        ...common,
        ...defined({
          subscriptionId: ourReferenceIn(object.metadata),
          providerSubscriptionId: idOf(object.id),
          providerCustomerId: idOf(object.customer)
        })
      })
    default:
      return Option.none()
  }
}
