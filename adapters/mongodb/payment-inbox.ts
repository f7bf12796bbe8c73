import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { InboxEntry, PaymentInbox, PaymentOutcome } from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { attempt, query } from "./driver.ts"
import { collectionSchema, decodeDocument, encodeDocument } from "./stored-schema.ts"

/** A delivery as stored: the provider's event id as `_id`, the key that applies each event at most once. */
const InboxDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    eventType: Schema.String,
    payload: Schema.String,
    receivedAt: Schema.DateTimeUtcFromDate,
    outcome: Schema.optional(PaymentOutcome),
    completedAt: Schema.optional(Schema.DateTimeUtcFromDate)
  }),
  InboxEntry,
  {
    decode: ({ _id, ...fields }) => ({ eventId: _id, ...fields }),
    encode: ({ eventId, ...fields }) => ({ _id: eventId, ...fields })
  }
)

const toEntry = decodeDocument(InboxDocument)
const toDocument = encodeDocument(InboxDocument)

export const makePaymentInbox = Effect.gen(function* () {
  const inbox = (yield* MongoDatabase).collection<typeof InboxDocument.Encoded>("payment_events")
  return PaymentInbox.of({
    receive: (entry) =>
      attempt(() => inbox.insertOne(toDocument(entry))).pipe(
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
