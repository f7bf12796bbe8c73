import { loadedWhenBuilt } from "../runtime/loaded-when-built.ts"
import type { StripeProviderOptions } from "./stripe-options.ts"

/**
 * Stripe as the payment provider; its package (~5 MB of a running service) is loaded only when this
 * layer is built, and a project without it is told to install it then.
 */
export const stripeProviderLayer = (options: StripeProviderOptions) =>
  loadedWhenBuilt(
    () => import("./stripe-provider.ts"),
    (loaded) => loaded.stripeProviderLayer(options),
    { name: "stripe", feature: "Billing through Stripe (STRIPE_SECRET_KEY)" }
  )
