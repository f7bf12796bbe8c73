import { DateTime, Effect, Layer, Option } from "effect"
import type Stripe from "stripe"
import { Checkout, PaymentProvider, type ProviderSubscription } from "../../core/index.ts"
import { callStripe, isInvalidRequest, makeStripeClient, type StripeClientOptions } from "./stripe-client.ts"

export interface StripeProviderOptions extends StripeClientOptions {
  /** Where Stripe's hosted checkout returns the customer to. */
  readonly successUrl: string
  readonly cancelUrl: string
}

const fromSeconds = (seconds: number | null | undefined) =>
  typeof seconds === "number" ? DateTime.makeUnsafe(seconds * 1000) : undefined

/** When a subscription set to cancel at its period's end ends: `cancel_at`, else its item's period end. */
const endOf = (subscription: Stripe.Subscription) =>
  fromSeconds(subscription.cancel_at) ?? fromSeconds(subscription.items.data[0]?.current_period_end)

const isOver = (status: Stripe.Subscription.Status) =>
  status === "canceled" || status === "incomplete_expired"

/**
 * Stripe as the payment provider, through the official package: Checkout Sessions in subscription
 * mode whose `client_reference_id` is our subscription id, cancellation at the period's end, seat
 * quantities. What is already done at Stripe (a session no longer open, a subscription already
 * over) counts as done.
 */
export const stripeProviderLayer = (options: StripeProviderOptions) =>
  Layer.sync(PaymentProvider, () => {
    const stripe = makeStripeClient(options)
    const alreadyOver = (subscription: ProviderSubscription) => (error: unknown) =>
      isInvalidRequest(error)
        ? Effect.tryPromise(() => stripe.subscriptions.retrieve(subscription.providerSubscriptionId)).pipe(
            Effect.flatMap((found) => (isOver(found.status) ? Effect.succeed(found) : Effect.fail(error)))
          )
        : Effect.fail(error)
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
          (error) =>
            isInvalidRequest(error)
              ? Effect.tryPromise(() => stripe.checkout.sessions.retrieve(checkout.id)).pipe(
                  Effect.flatMap((found) =>
                    found.status === "open" ? Effect.fail(error) : Effect.succeed(found)
                  )
                )
              : Effect.fail(error)
        ).pipe(Effect.asVoid),
      cancelNow: (subscription) =>
        callStripe(
          `cancel-${subscription.subscriptionId}`,
          (requestOptions) =>
            stripe.subscriptions.cancel(subscription.providerSubscriptionId, {}, requestOptions),
          alreadyOver(subscription)
        ).pipe(Effect.asVoid),
      cancelAtPeriodEnd: (subscription, version) =>
        callStripe(`cancel-at-period-end-${subscription.subscriptionId}-${version}`, (requestOptions) =>
          stripe.subscriptions.update(
            subscription.providerSubscriptionId,
            { cancel_at_period_end: true },
            requestOptions
          )
        ).pipe(Effect.map((updated) => ({ _tag: "AtPeriodEnd" as const, endsAt: endOf(updated) }))),
      setSeats: (subscription, seats, version) =>
        callStripe(`seats-${subscription.subscriptionId}-${version}-${seats}`, async (requestOptions) => {
          const current = await stripe.subscriptions.retrieve(subscription.providerSubscriptionId)
          const item = current.items.data[0]
          if (item === undefined)
            throw new Error(`Stripe subscription ${current.id} has no item to count seats on`)
          await stripe.subscriptions.update(
            current.id,
            { items: [{ id: item.id, quantity: seats }], proration_behavior: "create_prorations" },
            requestOptions
          )
        })
    })
  })
