import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { InboxEntry, PaymentEventId, PaymentInbox, PaymentOutcome } from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { attempt, decodeDocument, query } from "./driver.ts"

export interface InboxDocument {
  /** The provider's event id: the unique key that makes each event apply at most once. */
  _id: string
  eventType: string
  payload: string
  receivedAt: Date
  outcome?: string
  completedAt?: Date
}

const decode = decodeDocument(
  Schema.Struct({
    _id: PaymentEventId,
    eventType: Schema.String,
    payload: Schema.String,
    receivedAt: Schema.DateTimeUtcFromDate,
    outcome: Schema.optionalKey(PaymentOutcome),
    completedAt: Schema.optionalKey(Schema.DateTimeUtcFromDate)
  })
)

const toEntry = (document: unknown) =>
  Effect.map(decode(document), ({ _id, ...fields }) => new InboxEntry({ eventId: _id, ...fields }))

export const makePaymentInbox = Effect.gen(function* () {
  const inbox = (yield* MongoDatabase).collection<InboxDocument>("payment_events")
  return PaymentInbox.of({
    receive: (entry) =>
      attempt(() =>
        inbox.insertOne({
          _id: entry.eventId,
          eventType: entry.eventType,
          payload: entry.payload,
          receivedAt: DateTime.toDateUtc(entry.receivedAt)
        })
      ).pipe(
        Effect.as(Option.none<InboxEntry>()),
        Effect.catchTag("DuplicateKey", () =>
          query(() => inbox.findOne({ _id: entry.eventId })).pipe(
            Effect.flatMap((earlier) =>
              earlier === null
                ? Effect.die(new Error("a duplicate event vanished"))
                : Effect.map(toEntry(earlier), Option.some)
            )
          )
        )
      ),
    complete: (eventId, outcome, at) =>
      query(() =>
        inbox.updateOne({ _id: eventId }, { $set: { outcome, completedAt: DateTime.toDateUtc(at) } })
      ).pipe(Effect.asVoid)
  })
})

export const paymentInboxLayer = Layer.effect(PaymentInbox, makePaymentInbox)
