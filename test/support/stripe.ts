import Stripe from "stripe"
import { webhookSecret } from "./http.ts"

/** A Stripe event as Stripe sends it, `created` in seconds. */
export const stripeEvent = (
  type: string,
  object: Record<string, unknown>,
  created = Math.floor(Date.now() / 1000)
) => ({
  id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
  object: "event",
  type,
  created,
  data: { object }
})

/** Signs a payload with Stripe's own test helper, as Stripe would sign the delivery. */
export const stripeSignature = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
  Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? webhookSecret,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp })
  })
