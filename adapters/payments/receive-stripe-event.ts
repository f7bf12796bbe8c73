import { Effect, Option, Schema } from "effect"
import { applyPaymentEvent } from "../../core/index.ts"
import { actedOnTypes, StripeEvent, translateStripeEvent } from "./stripe-events.ts"
import { WebhookVerifier } from "./webhook-verifier.ts"

const decodeType = Schema.decodeUnknownEffect(Schema.fromJsonString(Schema.Struct({ type: Schema.String })))
const decodeEvent = Schema.decodeUnknownEffect(Schema.fromJsonString(StripeEvent), { errors: "all" })

/**
 * One webhook delivery: verified over its raw bytes first, then translated and applied at most
 * once. Types Roster does not act on are acknowledged as `ignored`.
 */
export const receiveStripeEvent = Effect.fn("Payments.receiveStripeEvent")(function* (
  rawBody: string,
  headers: Readonly<Record<string, string | undefined>>
) {
  yield* (yield* WebhookVerifier).verify(rawBody, headers)
  if (rawBody.trim() === "") return "ignored" as const
  // Only the events acted on must have their full shape; others may be any shape Stripe sends.
  if (!actedOnTypes.has((yield* decodeType(rawBody)).type)) return "ignored" as const
  const event = yield* decodeEvent(rawBody)
  const translated = translateStripeEvent(event)
  if (Option.isNone(translated)) return "ignored" as const
  return yield* applyPaymentEvent(translated.value, { eventType: event.type, payload: rawBody })
})
