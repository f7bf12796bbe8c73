export { SignatureRejected, WebhookVerifier } from "./webhook-verifier.ts"
export { type WebhookVerification, webhookVerifierLayer } from "./webhook-verifier-layer.ts"
