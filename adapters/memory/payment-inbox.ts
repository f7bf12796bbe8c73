import { Effect, Layer, Option } from "effect"
import { InboxEntry, PaymentInbox } from "../../core/index.ts"

export const makePaymentInbox = Effect.sync(() => {
  const entries = new Map<string, InboxEntry>()

  return PaymentInbox.of({
    receive: (entry) =>
      Effect.sync(() => {
        const earlier = entries.get(entry.eventId)
        if (earlier === undefined) entries.set(entry.eventId, entry)
        return Option.fromNullishOr(earlier)
      }),
    complete: (eventId, outcome, at) =>
      Effect.sync(() => {
        const entry = entries.get(eventId)
        if (entry !== undefined) entries.set(eventId, new InboxEntry({ ...entry, outcome, completedAt: at }))
      })
  })
})

export const paymentInboxLayer = Layer.effect(PaymentInbox, makePaymentInbox)
