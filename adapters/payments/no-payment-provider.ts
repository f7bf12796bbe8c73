import { Effect, Layer } from "effect"
import { PaymentProvider } from "../../core/index.ts"

/**
 * No provider to call: no checkout is opened (payment arrives by other means, such as a payment
 * link whose webhook names our subscription id), a cancellation takes effect at once, and seats
 * are counted here only.
 */
export const noPaymentProviderLayer = Layer.succeed(
  PaymentProvider,
  PaymentProvider.of({
    openCheckout: () => Effect.succeedNone,
    closeCheckout: () => Effect.void,
    cancelNow: () => Effect.void,
    cancelAtPeriodEnd: () => Effect.succeed({ _tag: "Immediate" }),
    setSeats: () => Effect.void
  })
)
