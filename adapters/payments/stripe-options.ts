import type { Duration, Redacted } from "effect"

// Kept apart from the code that loads Stripe's package: naming these needs no `stripe` installed.

/** How Roster reaches Stripe's API. */
export interface StripeClientOptions {
  readonly secretKey: Redacted.Redacted<string>
  /** Another server of Stripe's API (stripe-mock in tests); Stripe's own when absent. */
  readonly apiUrl: URL | undefined
  /** Each attempt's bound; one retry follows a failed attempt, with the same idempotency key. */
  readonly timeout: Duration.Duration
}

export interface StripeProviderOptions extends StripeClientOptions {
  /** Where Stripe's hosted checkout returns the customer to. */
  readonly successUrl: string
  readonly cancelUrl: string
}
