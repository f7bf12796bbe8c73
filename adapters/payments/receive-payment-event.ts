import { Effect, Option, Schema } from "effect"
import { acknowledgePaymentEvent, applyPaymentEvent, PaymentEventId } from "../../core/index.ts"
import { actedOnTypes, StripeEvent, translateStripeEvent } from "./stripe-events.ts"
import { WebhookVerifier } from "./webhook-verifier.ts"

/**
 * A delivery is a JSON object. One without a string `type` is not an event Roster acts on, like an
 * unknown type: acknowledged and ignored. Only the events acted on must have their full shape.
 */
const Envelope = Schema.Record(Schema.String, Schema.Unknown)

const eventIdOf = Schema.decodeUnknownOption(PaymentEventId)

const decodeEnvelope = Schema.decodeUnknownEffect(Schema.fromJsonString(Envelope), { errors: "all" })
const decodeEvent = Schema.decodeUnknownEffect(Schema.fromJsonString(StripeEvent), { errors: "all" })

/**
 * One webhook delivery: verified over its raw bytes first (by the configured scheme), then applied
 * at most once, or, for what Roster does not act on, recorded as `ignored`. The body is a Stripe
 * event whichever scheme signed it. Answers the outcome, and the event's type as metrics label it:
 * a type Roster acts on, else `other` (the labels stay few whatever a provider sends).
 */
export const receivePaymentEvent = Effect.fnUntraced(function* (
  rawBody: string,
  headers: Readonly<Record<string, string | undefined>>
) {
  yield* (yield* WebhookVerifier).verify(rawBody, headers)
  if (rawBody.trim() === "") return { outcome: "ignored" as const, eventType: "other" }
  const envelope = yield* decodeEnvelope(rawBody)
  // An event without a usable id cannot be recorded; it is still acknowledged, never refused.
  const type = envelope.type
  const ignore = () =>
    Option.match(typeof type === "string" ? eventIdOf(envelope.id) : Option.none(), {
      onNone: () => Effect.succeed("ignored" as const),
      onSome: (eventId) => acknowledgePaymentEvent({ eventId, eventType: String(type), payload: rawBody })
    })
  if (typeof type !== "string" || !actedOnTypes.has(type)) {
    return { outcome: yield* ignore(), eventType: "other" }
  }
  const event = yield* decodeEvent(rawBody)
  const translated = translateStripeEvent(event)
  if (Option.isNone(translated)) return { outcome: yield* ignore(), eventType: type }
  const outcome = yield* applyPaymentEvent(translated.value, { eventType: event.type, payload: rawBody })
  return { outcome, eventType: type }
})
