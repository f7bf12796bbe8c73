import { Effect, Layer } from "effect"
import { SignatureRejected, WebhookVerifier } from "./webhook-verifier.ts"

/** Open local mode without a secret: deliveries are taken as they come (for trying the service out). */
export const acceptUnsignedLayer = Layer.succeed(WebhookVerifier)({ verify: () => Effect.void })

/** Secured mode without a secret: nothing can be verified, so nothing is accepted. */
export const rejectAllLayer = Layer.succeed(WebhookVerifier)({
  verify: () => Effect.fail(new SignatureRejected({ reason: "not_configured" }))
})
