import { randomUUID } from "node:crypto"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import type { Filter } from "mongodb"
import {
  type ClaimedDelivery,
  DeliveryRecord,
  DeliveryStore,
  inOrganization,
  settled,
  toDelivery
} from "../../core/index.ts"
import { notRemoved } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { query, queryWrite } from "./driver.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"
import { toWebhookRecord } from "./webhook-store.ts"

/** A delivery as stored; `claim` and `leaseUntil` while an instance is trying it. */
const DeliveryDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    webhookId: Schema.String,
    organizationId: Schema.String,
    eventId: Schema.String,
    type: Schema.String,
    attempts: Schema.Int,
    status: Schema.String,
    lastStatusCode: Schema.optionalKey(Schema.Int),
    lastError: Schema.optionalKey(Schema.String),
    lastResponse: Schema.optionalKey(Schema.String),
    nextAttemptAt: Schema.optionalKey(Schema.DateTimeUtcFromDate),
    createdAt: Schema.DateTimeUtcFromDate,
    updatedAt: Schema.DateTimeUtcFromDate,
    body: Schema.String,
    claim: Schema.optionalKey(Schema.String),
    leaseUntil: Schema.optionalKey(Schema.DateTimeUtcFromDate)
  }),
  DeliveryRecord,
  {
    decode: ({ _id, claim: _claim, leaseUntil: _lease, ...fields }) => ({
      id: _id,
      ...(fields as Omit<typeof fields, "type" | "status"> & Pick<DeliveryRecord, "type" | "status">)
    }),
    encode: ({ id, ...fields }) => ({ _id: id, ...fields })
  }
)
type DeliveryDocument = typeof DeliveryDocument.Encoded

const toRecord = decodeDocument(DeliveryDocument)
const toDocument = encodeDocument(DeliveryDocument)
const toShown = (document: unknown) => Effect.map(toRecord(document), toDelivery)

/** The fields a try's outcome may leave out, cleared unless it sets them. */
const outcomeFields = ["lastStatusCode", "lastError", "lastResponse", "nextAttemptAt"] as const

export const makeDeliveryStore = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const deliveries = db.collection<DeliveryDocument>("webhook_deliveries")
  const webhooks = db.collection("webhooks")
  const ofEndpoint = (organizationId: string, webhookId: string, id: string) => ({
    _id: id,
    webhookId,
    organizationId
  })
  /** Writes `record`'s outcome fields where `filter` holds, clearing the rest and the claim. */
  const write = (filter: Filter<DeliveryDocument>, record: DeliveryRecord) => {
    const { _id, ...document } = toDocument(record)
    const unset: Record<string, ""> = { claim: "", leaseUntil: "" }
    for (const field of outcomeFields) if (!(field in document)) unset[field] = ""
    return queryWrite(() =>
      deliveries.findOneAndUpdate(filter, { $set: document, $unset: unset }, { returnDocument: "after" })
    )
  }
  return DeliveryStore.of({
    enqueue: (records) =>
      records.length === 0
        ? Effect.void
        : queryWrite(() =>
            deliveries.bulkWrite(
              records.map((record) => {
                const document = toDocument(record)
                return {
                  updateOne: {
                    filter: { webhookId: document.webhookId, eventId: document.eventId },
                    update: { $setOnInsert: document },
                    upsert: true
                  }
                }
              }),
              { ordered: false }
            )
          ).pipe(Effect.asVoid),
    page: (webhookId, status, after, limit) =>
      inOrganization((organizationId) => {
        const filter: Record<string, unknown> = { webhookId, organizationId }
        if (status !== undefined) filter.status = status
        if (after !== undefined) {
          const createdAt = DateTime.toDateUtc(after.createdAt)
          filter.$or = [{ createdAt: { $lt: createdAt } }, { createdAt, _id: { $lt: after.id } }]
        }
        return query(() =>
          deliveries.find(filter).sort({ webhookId: 1, createdAt: -1, _id: -1 }).limit(limit).toArray()
        )
      }).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toShown))),
    find: (webhookId, id) =>
      inOrganization((organizationId) =>
        query(() => deliveries.findOne(ofEndpoint(organizationId, webhookId, id)))
      ).pipe(Effect.flatMap(optionally(toShown))),
    retry: (webhookId, id, now) =>
      inOrganization((organizationId) =>
        queryWrite(() =>
          deliveries.findOneAndUpdate(
            ofEndpoint(organizationId, webhookId, id),
            {
              $set: {
                status: "pending",
                nextAttemptAt: DateTime.toDateUtc(now),
                updatedAt: DateTime.toDateUtc(now)
              }
            },
            { returnDocument: "after" }
          )
        )
      ).pipe(Effect.flatMap(optionally(toShown))),
    claimDue: (now, leaseUntil, limit) =>
      Effect.gen(function* () {
        const at = DateTime.toDateUtc(now)
        const free = { $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lte: at } }] }
        const due = yield* query(() =>
          deliveries
            .find({ nextAttemptAt: { $lte: at }, ...free }, { projection: { webhookId: 1 } })
            .sort({ nextAttemptAt: 1 })
            .limit(limit * 4)
            .toArray()
        )
        if (due.length === 0) return []
        const endpoints = yield* query(() =>
          webhooks
            .find({
              _id: { $in: [...new Set(due.map((d) => d.webhookId))] } as never,
              enabled: true,
              ...notRemoved
            })
            .toArray()
        )
        const byId = new Map<string, unknown>(endpoints.map((endpoint) => [String(endpoint._id), endpoint]))
        const claimed: Array<ClaimedDelivery> = []
        for (const candidate of due) {
          if (claimed.length === limit) break
          const endpoint = byId.get(candidate.webhookId)
          if (endpoint === undefined) continue
          const claim = randomUUID()
          const taken = yield* queryWrite(() =>
            deliveries.findOneAndUpdate(
              { _id: candidate._id, nextAttemptAt: { $lte: at }, ...free },
              { $set: { claim, leaseUntil: DateTime.toDateUtc(leaseUntil) } },
              { returnDocument: "after" }
            )
          )
          if (taken === null) continue
          claimed.push({ delivery: yield* toRecord(taken), webhook: yield* toWebhookRecord(endpoint), claim })
        }
        return claimed
      }),
    settle: (id, claim, outcome, now) =>
      query(() => deliveries.findOne({ _id: id, claim })).pipe(
        Effect.flatMap(optionally(toRecord)),
        Effect.flatMap((found) => {
          if (Option.isNone(found)) return Effect.succeed(false)
          const record = settled(found.value, outcome, now)
          return Effect.map(write({ _id: id, claim }, record), (written) => written !== null)
        })
      ),
    unfinishedOf: (organizationId) =>
      query(() => deliveries.countDocuments({ organizationId, nextAttemptAt: { $exists: true } })),
    prune: (before) =>
      queryWrite(() =>
        deliveries.deleteMany({
          nextAttemptAt: { $exists: false },
          updatedAt: { $lt: DateTime.toDateUtc(before) }
        })
      ).pipe(Effect.asVoid)
  })
})

export const deliveryStoreLayer = Layer.effect(DeliveryStore, makeDeliveryStore)
