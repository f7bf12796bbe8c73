import { DateTime, Option, Schema } from "effect"
import { SubscriptionId } from "../../core/index.ts"

/** A Stripe object as a delivery carries it: read field by field, nothing assumed. */
export type StripeObject = Readonly<Record<string, unknown>>

export const isObject = (value: unknown): value is StripeObject => typeof value === "object" && value !== null

/** A reference Stripe sends either as an id or, when expanded, as the object carrying it. */
export const idOf = (value: unknown): string | undefined => {
  if (typeof value === "string" && value !== "") return value
  return isObject(value) ? idOf(value.id) : undefined
}

const decodeReference = Schema.decodeUnknownOption(SubscriptionId)

/** Our subscription id, where Stripe hands it back: a checkout's `client_reference_id`. */
export const ourReference = (value: unknown) => Option.getOrUndefined(decodeReference(value))

/** Our subscription id in the metadata the checkout gave the Stripe subscription. */
export const ourReferenceIn = (metadata: unknown) =>
  isObject(metadata) ? ourReference(metadata.roster_subscription_id) : undefined

/** Where an invoice names its subscription: on itself in older API versions, under `parent` in newer ones. */
export const invoiceSubscription = (invoice: StripeObject) => {
  const parent = invoice.parent
  const details = isObject(parent) ? parent.subscription_details : invoice.subscription_details
  return {
    providerSubscriptionId:
      idOf(invoice.subscription) ?? (isObject(details) ? idOf(details.subscription) : undefined),
    subscriptionId: isObject(details) ? ourReferenceIn(details.metadata) : undefined
  }
}

const instantOf = (seconds: unknown) =>
  typeof seconds === "number" && Number.isSafeInteger(seconds) && seconds >= 0 && seconds <= 8_640_000_000_000
    ? DateTime.makeUnsafe(seconds * 1000)
    : undefined

/**
 * When a subscription set to cancel ends: `cancel_at`, else the end of its current period (on the
 * subscription in older API versions, on its item in newer ones).
 */
export const endOf = (subscription: object) => {
  const fields = subscription as StripeObject
  const items = isObject(fields.items) ? fields.items.data : undefined
  const item = Array.isArray(items) && isObject(items[0]) ? items[0] : {}
  return (
    instantOf(fields.cancel_at) ?? instantOf(fields.current_period_end) ?? instantOf(item.current_period_end)
  )
}
