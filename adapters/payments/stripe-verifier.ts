import { Effect, Layer, Redacted } from "effect"
import Stripe from "stripe"
import { SignatureRejected, WebhookVerifier } from "./webhook-verifier.ts"

const toleranceSeconds = 300

const signature = Stripe.webhooks.signature

/**
 * Stripe's verifier refuses a timestamp older than the tolerance but not one ahead of it: a
 * delivery dated in the future is refused here as a stale one is, so a captured signature cannot
 * be made to outlive its window.
 */
const datedAhead = (header: string, nowSeconds: number) =>
  header
    .split(",")
    .map((item) => item.split("="))
    .some(
      ([key, value]) =>
        key?.trim() === "t" && Number.parseInt(value ?? "", 10) > nowSeconds + toleranceSeconds
    )

// The verifier throws on any mismatch; only whether it passed matters here.
const verifiedBy = async (rawBody: string, header: string, secret: Redacted.Redacted<string>) =>
  signature !== null &&
  (await signature
    .verifyHeaderAsync(rawBody, header, Redacted.value(secret), toleranceSeconds)
    .catch(() => false))

/**
 * Stripe's scheme (`Stripe-Signature: t=…,v1=…`), checked by Stripe's own verifier: HMAC-SHA256
 * of `t.body`, constant-time, any of several `v1` values, 300 s tolerance either way. Several
 * secrets are tried in turn so that a secret can be rotated without dropping deliveries.
 */
export const stripeVerifierLayer = (secrets: ReadonlyArray<Redacted.Redacted<string>>) =>
  Layer.succeed(WebhookVerifier)({
    verify: (rawBody, headers) => {
      const header = headers["stripe-signature"]
      if (header === undefined || header === "")
        return Effect.fail(new SignatureRejected({ reason: "missing" }))
      return Effect.promise(async () => {
        if (datedAhead(header, Math.floor(Date.now() / 1000))) return false
        for (const secret of secrets) if (await verifiedBy(rawBody, header, secret)) return true
        return false
      }).pipe(
        Effect.flatMap((verified) =>
          verified ? Effect.void : Effect.fail(new SignatureRejected({ reason: "invalid" }))
        )
      )
    }
  })
