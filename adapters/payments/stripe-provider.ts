import { Effect, Layer, Option } from "effect"
import type Stripe from "stripe"
import { Checkout, PaymentProvider, type ProviderSubscription } from "../../core/index.ts"
import { callStripe, makeStripeClient } from "./stripe-client.ts"
import { endOf } from "./stripe-objects.ts"
import type { StripeProviderOptions } from "./stripe-options.ts"

const isOver = (subscription: Stripe.Subscription) =>
  subscription.status === "canceled" || subscription.status === "incomplete_expired"

/**
 * Stripe as the payment provider, through the official package: Checkout Sessions in subscription
 * mode whose `client_reference_id` is our subscription id, cancellation at the period's end, seat
 * quantities. What is already done at Stripe (a session no longer open, a subscription already
 * over) counts as done.
 */
export const stripeProviderLayer = (options: StripeProviderOptions) =>
  Layer.sync(PaymentProvider, () => {
    const stripe = makeStripeClient(options)
    /** The subscription as Stripe has it, when a refusal may mean it is already over. */
    const overAtStripe = async ({ providerSubscriptionId }: ProviderSubscription) => {
      const found = await stripe.subscriptions.retrieve(providerSubscriptionId)
      return isOver(found) ? found : undefined
    }
    return PaymentProvider.of({
      openCheckout: ({ subscriptionId, providerPriceId, quantity }) =>
        providerPriceId === undefined
          ? Effect.die(new Error(`No Stripe price for the plan of ${subscriptionId}; the catalog needs one`))
          : callStripe(`checkout-${subscriptionId}`, (requestOptions) =>
              stripe.checkout.sessions.create(
                {
                  mode: "subscription",
                  line_items: [{ price: providerPriceId, quantity }],
                  client_reference_id: subscriptionId,
                  subscription_data: { metadata: { roster_subscription_id: subscriptionId } },
                  success_url: options.successUrl,
                  cancel_url: options.cancelUrl
                },
                requestOptions
              )
            ).pipe(
              Effect.flatMap((session) =>
                session.url === null
                  ? Effect.die(new Error(`Stripe answered checkout session ${session.id} without a URL`))
                  : Effect.succeed(Option.some(new Checkout({ id: session.id, url: session.url })))
              )
            ),
      closeCheckout: (subscriptionId, checkout) =>
        callStripe(
          `close-checkout-${subscriptionId}`,
          (requestOptions) => stripe.checkout.sessions.expire(checkout.id, {}, requestOptions),
          async () => {
            const found = await stripe.checkout.sessions.retrieve(checkout.id)
            return found.status === "open" ? undefined : found
          }
        ).pipe(Effect.asVoid),
      // A DELETE: idempotent by definition, and Stripe ignores keys on it.
      cancelNow: (subscription) =>
        callStripe(
          undefined,
          (requestOptions) =>
            stripe.subscriptions.cancel(subscription.providerSubscriptionId, {}, requestOptions),
          () => overAtStripe(subscription)
        ).pipe(Effect.asVoid),
      cancelAtPeriodEnd: (subscription, version) =>
        callStripe(
          `cancel-at-period-end-${subscription.subscriptionId}-${version}`,
          (requestOptions) =>
            stripe.subscriptions.update(
              subscription.providerSubscriptionId,
              { cancel_at_period_end: true },
              requestOptions
            ),
          () => overAtStripe(subscription)
        ).pipe(
          Effect.map((answer) =>
            isOver(answer)
              ? { _tag: "Immediate" as const }
              : { _tag: "AtPeriodEnd" as const, endsAt: endOf(answer) }
          )
        ),
      setSeats: (subscription, seats, version) =>
        callStripe(
          `seats-${subscription.subscriptionId}-${version}-${seats}`,
          async (requestOptions) => {
            const current = await stripe.subscriptions.retrieve(subscription.providerSubscriptionId)
            const item = current.items.data[0]
            if (item === undefined)
              throw new Error(`Stripe subscription ${current.id} has no item to count seats on`)
            return stripe.subscriptions.update(
              current.id,
              { items: [{ id: item.id, quantity: seats }], proration_behavior: "create_prorations" },
              requestOptions
            )
          },
          () => overAtStripe(subscription)
        ).pipe(Effect.asVoid)
    })
  })
