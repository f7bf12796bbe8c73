import { DateTime, Effect, Layer, Schema } from "effect"
import {
  Currency,
  MinorUnits,
  Money,
  PaymentEventId,
  PlanId,
  StatusChange,
  Subscription,
  SubscriptionId,
  SubscriptionStatus,
  SubscriptionStore
} from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { decodeDocument, optionally, query } from "./driver.ts"

const SubscriptionDocumentSchema = Schema.Struct({
  _id: SubscriptionId,
  planId: PlanId,
  planName: Schema.String,
  price: Schema.Struct({ amountMinor: MinorUnits, currency: Currency }),
  status: SubscriptionStatus,
  history: Schema.Array(Schema.Struct({ status: SubscriptionStatus, at: Schema.DateTimeUtcFromDate })),
  providerSubscriptionId: Schema.optionalKey(Schema.String),
  providerCustomerId: Schema.optionalKey(Schema.String),
  lastEventAt: Schema.optionalKey(Schema.DateTimeUtcFromDate),
  recentEventIds: Schema.Array(PaymentEventId),
  version: Schema.Int,
  createdAt: Schema.DateTimeUtcFromDate,
  updatedAt: Schema.DateTimeUtcFromDate
})

export type SubscriptionDocument = typeof SubscriptionDocumentSchema.Encoded

const decode = decodeDocument(SubscriptionDocumentSchema)

const toSubscription = (document: unknown) =>
  Effect.map(
    decode(document),
    ({ _id, price, history, ...fields }) =>
      new Subscription({
        id: _id,
        price: new Money(price),
        history: history.map((change) => new StatusChange(change)),
        ...fields
      })
  )

const toDocument = (subscription: Subscription): SubscriptionDocument => ({
  _id: subscription.id,
  planId: subscription.planId,
  planName: subscription.planName,
  price: { amountMinor: subscription.price.amountMinor, currency: subscription.price.currency },
  status: subscription.status,
  history: subscription.history.map(({ status, at }) => ({ status, at: DateTime.toDateUtc(at) })),
  ...(subscription.providerSubscriptionId === undefined
    ? {}
    : { providerSubscriptionId: subscription.providerSubscriptionId }),
  ...(subscription.providerCustomerId === undefined
    ? {}
    : { providerCustomerId: subscription.providerCustomerId }),
  ...(subscription.lastEventAt === undefined
    ? {}
    : { lastEventAt: DateTime.toDateUtc(subscription.lastEventAt) }),
  recentEventIds: [...subscription.recentEventIds],
  version: subscription.version,
  createdAt: DateTime.toDateUtc(subscription.createdAt),
  updatedAt: DateTime.toDateUtc(subscription.updatedAt)
})

/** Newest first, the id breaking ties as `byCreation` does. */
const newestFirst = { createdAt: -1, _id: -1 } as const

export const makeSubscriptionStore = Effect.gen(function* () {
  const subscriptions = (yield* MongoDatabase).collection<SubscriptionDocument>("subscriptions")
  const all = (documents: ReadonlyArray<unknown>) => Effect.forEach(documents, toSubscription)
  return SubscriptionStore.of({
    insert: (subscription) =>
      query(() => subscriptions.insertOne(toDocument(subscription))).pipe(Effect.asVoid),
    findById: (id) =>
      query(() => subscriptions.findOne({ _id: id })).pipe(Effect.flatMap(optionally(toSubscription))),
    findByProviderSubscriptionId: (providerSubscriptionId) =>
      query(() => subscriptions.findOne({ providerSubscriptionId }, { sort: newestFirst })).pipe(
        Effect.flatMap(optionally(toSubscription))
      ),
    listOpen: query(() =>
      subscriptions
        .find({ status: { $ne: "canceled" } })
        .sort(newestFirst)
        .toArray()
    ).pipe(Effect.flatMap(all)),
    latest: query(() => subscriptions.findOne({}, { sort: newestFirst })).pipe(
      Effect.flatMap(optionally(toSubscription))
    ),
    // Compare-and-set in one document operation: it matches only the version the writer read.
    replace: (next) =>
      query(() =>
        subscriptions.replaceOne({ _id: next.id, version: next.version - 1 }, toDocument(next))
      ).pipe(Effect.map((result) => result.matchedCount === 1))
  })
})

export const subscriptionStoreLayer = Layer.effect(SubscriptionStore, makeSubscriptionStore)
