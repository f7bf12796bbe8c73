export { noPaymentProviderLayer } from "./no-payment-provider.ts"
export { type StripeProviderOptions, stripeProviderLayer } from "./stripe-provider.ts"
export { SignatureRejected, WebhookVerifier } from "./webhook-verifier.ts"
export { type WebhookVerification, webhookVerifierLayer } from "./webhook-verifier-layer.ts"
