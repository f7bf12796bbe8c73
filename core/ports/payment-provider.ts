import { Context, type DateTime, type Effect, type Option } from "effect"
import type { ProviderUnavailable } from "../model/errors.ts"
import type { SubscriptionId } from "../model/ids.ts"
import type { Checkout } from "../model/subscription.ts"

export interface CheckoutRequest {
  /** Ours: the provider hands it back as the checkout's reference when it is paid. */
  readonly subscriptionId: SubscriptionId
  readonly providerPriceId: string | undefined
  readonly quantity: number
}

/** A provider subscription, named by our id too: adapters derive their idempotency keys from it. */
export interface ProviderSubscription {
  readonly subscriptionId: SubscriptionId
  readonly providerSubscriptionId: string
}

/**
 * How a cancellation goes: the provider ends the subscription when its paid period ends (at
 * `endsAt` when it says), or there is no provider to ask and it ends now.
 */
export type Cancellation =
  | { readonly _tag: "AtPeriodEnd"; readonly endsAt: DateTime.Utc | undefined }
  | { readonly _tag: "Immediate" }

/**
 * The payment provider, which charges for subscriptions. Every call is idempotent for the same
 * arguments (a retried request, or two instances doing the same, has one effect at the provider)
 * and either succeeds or fails as `ProviderUnavailable` within a bounded time.
 */
export class PaymentProvider extends Context.Service<
  PaymentProvider,
  {
    /** Opens the provider's hosted payment page for a new subscription; none when payment is not taken here. */
    readonly openCheckout: (
      request: CheckoutRequest
    ) => Effect.Effect<Option.Option<Checkout>, ProviderUnavailable>
    /** Closes a checkout nobody completed, so that it can no longer be paid. Done when already closed. */
    readonly closeCheckout: (
      subscriptionId: SubscriptionId,
      checkout: Checkout
    ) => Effect.Effect<void, ProviderUnavailable>
    /** Ends a subscription at the provider now (a newer one replaced it). Done when already ended. */
    readonly cancelNow: (subscription: ProviderSubscription) => Effect.Effect<void, ProviderUnavailable>
    /**
     * Asks the provider to end a subscription when its paid period ends. `version` is our
     * subscription's, so that asking again after the customer resumed it is a new request.
     */
    readonly cancelAtPeriodEnd: (
      subscription: ProviderSubscription,
      version: number
    ) => Effect.Effect<Cancellation, ProviderUnavailable>
    /**
     * Sets the quantity billed. `version` is our subscription's, so that setting the same count
     * again after another change is a new call, not a replay.
     */
    readonly setSeats: (
      subscription: ProviderSubscription,
      seats: number,
      version: number
    ) => Effect.Effect<void, ProviderUnavailable>
  }
>()("roster/core/ports/PaymentProvider") {}
