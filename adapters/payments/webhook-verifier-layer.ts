import type { Redacted } from "effect"
import { loadedWhenBuilt } from "../runtime/loaded-when-built.ts"
import { standardWebhooksVerifierLayer } from "./standard-webhooks-verifier.ts"
import { acceptUnsignedLayer, rejectAllLayer } from "./unsigned-verifier.ts"

/** How deliveries are verified: by a signature scheme with its secrets, or not at all. */
export type WebhookVerification =
  | {
      readonly scheme: "stripe" | "standard-webhooks"
      readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
    }
  | { readonly scheme: "unsigned" | "reject" }

export const webhookVerifierLayer = (verification: WebhookVerification) => {
  switch (verification.scheme) {
    case "stripe":
      // Chosen this way, Stripe's package (~5 MB of a running service) loads only where its deliveries are verified.
      return loadedWhenBuilt(
        () => import("./stripe-verifier.ts"),
        ({ stripeVerifierLayer }) => stripeVerifierLayer(verification.secrets),
        { name: "stripe", feature: "Verifying Stripe's webhook signatures (ROSTER_WEBHOOK_SCHEME=stripe)" }
      )
    case "standard-webhooks":
      return standardWebhooksVerifierLayer(verification.secrets)
    case "unsigned":
      return acceptUnsignedLayer
    case "reject":
      return rejectAllLayer
  }
}
