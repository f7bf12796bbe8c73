import { Effect, Layer, Schema } from "effect"
import {
  Currency,
  inOrganization,
  Subscription,
  SubscriptionStatus,
  SubscriptionStore
} from "../../core/index.ts"
import { auditedWrites, bookkeeping } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { duplicateIsDefect, query } from "./driver.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"

/** A subscription as stored, with a `version` for compare-and-set writes. */
const StoredFields = Schema.Struct({
  _id: Schema.String,
  organizationId: Schema.String,
  planId: Schema.String,
  planName: Schema.String,
  price: Schema.Struct({ amountMinor: Schema.Int, currency: Currency }),
  status: SubscriptionStatus,
  history: Schema.Array(Schema.Struct({ status: SubscriptionStatus, at: Schema.DateTimeUtcFromDate })),
  checkout: Schema.optional(Schema.Struct({ id: Schema.String, url: Schema.String })),
  seats: Schema.optional(Schema.Int),
  cancelAt: Schema.optional(Schema.DateTimeUtcFromDate),
  providerSubscriptionId: Schema.optional(Schema.String),
  providerCustomerId: Schema.optional(Schema.String),
  lastEventAt: Schema.optional(Schema.DateTimeUtcFromDate),
  recentEventIds: Schema.Array(Schema.String),
  version: Schema.Int,
  createdAt: Schema.DateTimeUtcFromDate,
  updatedAt: Schema.DateTimeUtcFromDate,
  outbox: bookkeeping.outbox
})

const SubscriptionDocument = collectionSchema(StoredFields, Subscription, {
  decode: ({ _id, outbox: _outbox, ...fields }) => ({ id: _id, ...fields }),
  encode: ({ id, ...fields }) => ({ _id: id, ...fields })
})

export type SubscriptionDocument = typeof SubscriptionDocument.Encoded

/** The fields a compare-and-set write sets: all but the key and the outbox, which it leaves alone. */
const replacedFields = Object.keys(StoredFields.fields).filter(
  (field) => field !== "_id" && field !== "outbox"
) as ReadonlyArray<Exclude<keyof SubscriptionDocument, "_id" | "outbox">>

const toSubscription = decodeDocument(SubscriptionDocument)
const toDocument = encodeDocument(SubscriptionDocument)

/** Newest first, the id breaking ties as `byCreation` does. */
const newestFirst = { createdAt: -1, _id: -1 } as const

export const makeSubscriptionStore = Effect.gen(function* () {
  const writes = auditedWrites<SubscriptionDocument>(yield* MongoDatabase, "subscriptions")
  const subscriptions = writes.collection
  const all = (documents: ReadonlyArray<unknown>) => Effect.forEach(documents, toSubscription)
  return SubscriptionStore.of({
    insert: (subscription, entry) => duplicateIsDefect(writes.insert(toDocument(subscription), entry)),
    findById: (id) =>
      query(() => subscriptions.findOne({ _id: id })).pipe(Effect.flatMap(optionally(toSubscription))),
    findByProviderSubscriptionId: (providerSubscriptionId) =>
      query(() => subscriptions.findOne({ providerSubscriptionId }, { sort: newestFirst })).pipe(
        Effect.flatMap(optionally(toSubscription))
      ),
    listOpen: inOrganization((organizationId) =>
      query(() =>
        subscriptions
          .find({ organizationId, status: { $ne: "canceled" } })
          .sort(newestFirst)
          .toArray()
      )
    ).pipe(Effect.flatMap(all)),
    latest: inOrganization((organizationId) =>
      query(() => subscriptions.findOne({ organizationId }, { sort: newestFirst }))
    ).pipe(Effect.flatMap(optionally(toSubscription))),
    // Compare-and-set in one document operation: it matches only the version the writer read. Set,
    // not replaced, so that entries still pending on the document stay with it.
    replace: (next, entry) => {
      const { _id, ...fields } = toDocument(next)
      // An optional field the next version lacks is removed, as replacing the document would.
      const absent = replacedFields.filter((field) => fields[field] === undefined)
      return inOrganization((organizationId) =>
        duplicateIsDefect(
          writes.update(
            { _id, organizationId, version: next.version - 1 },
            {
              $set: fields,
              ...(absent.length === 0
                ? {}
                : { $unset: Object.fromEntries(absent.map((field) => [field, ""])) })
            },
            entry
          )
        )
      ).pipe(Effect.map((written) => written !== null))
    }
  })
})

export const subscriptionStoreLayer = Layer.effect(SubscriptionStore, makeSubscriptionStore)
