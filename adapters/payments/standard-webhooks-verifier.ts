import { Effect, Layer, Redacted } from "effect"
import { Webhook } from "standardwebhooks"
import { SignatureRejected, WebhookVerifier } from "./webhook-verifier.ts"

const signatureHeaders = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const

/** Whether a secret is one the Standard Webhooks verifier accepts (`whsec_` and base64). */
export const isStandardWebhooksSecret = (secret: Redacted.Redacted<string>) => {
  if (!Redacted.value(secret).startsWith("whsec_")) return false
  try {
    new Webhook(Redacted.value(secret))
    return true
  } catch {
    return false
  }
}

/**
 * The Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`, `webhook-signature`), checked by
 * its reference library: HMAC-SHA256 of `id.timestamp.body`, constant-time, 5 minutes' tolerance,
 * any of several signatures; each configured secret is tried in turn.
 */
export const standardWebhooksVerifierLayer = (secrets: ReadonlyArray<Redacted.Redacted<string>>) =>
  Layer.sync(WebhookVerifier, () => {
    const webhooks = secrets.map((secret) => new Webhook(Redacted.value(secret)))
    return WebhookVerifier.of({
      verify: (rawBody, headers) => {
        if (signatureHeaders.some((name) => !headers[name])) {
          return Effect.fail(new SignatureRejected({ reason: "missing" }))
        }
        const signed = Object.fromEntries(signatureHeaders.map((name) => [name, headers[name] ?? ""]))
        const verified = webhooks.some((webhook) => {
          try {
            webhook.verify(rawBody, signed, { jsonParse: false })
            return true
          } catch {
            return false
          }
        })
        return verified ? Effect.void : Effect.fail(new SignatureRejected({ reason: "invalid" }))
      }
    })
  })
