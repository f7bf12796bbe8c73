import { DateTime, Effect, Layer, Option, Schema } from "effect"
import type { Filter } from "mongodb"
import {
  AuditActor,
  type AuditEntry,
  inOrganization,
  maxWebhooks,
  OrganizationId,
  type StoreUnavailable,
  toWebhook,
  WebhookLimit,
  type WebhookPosition,
  WebhookRecord,
  WebhookStore
} from "../../core/index.ts"
import { auditedWrites, bookkeeping, notRemoved } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { duplicateIsDefect, query, queryWrite } from "./driver.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"

/**
 * An endpoint as stored. `slot` is one of the organisation's `maxWebhooks` places, unique within
 * it, so that the index refuses a twenty-first endpoint however many instances add one at once.
 */
const WebhookDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    organizationId: Schema.String,
    url: Schema.String,
    events: Schema.Array(Schema.String),
    enabled: Schema.Boolean,
    description: Schema.NullOr(Schema.String),
    createdAt: Schema.DateTimeUtcFromDate,
    secret: Schema.String,
    previous: Schema.NullOr(Schema.Struct({ secret: Schema.String, until: Schema.DateTimeUtcFromDate })),
    failingSince: Schema.NullOr(Schema.DateTimeUtcFromDate),
    /** Absent on endpoints made before it was kept. */
    createdBy: Schema.optionalKey(AuditActor),
    ...bookkeeping
  }),
  WebhookRecord,
  {
    decode: ({ _id, outbox: _outbox, removed: _removed, ...fields }) => ({
      id: _id,
      ...fields,
      events: fields.events as WebhookRecord["events"]
    }),
    encode: ({ id, ...fields }) => ({ _id: id, ...fields })
  }
)
type WebhookDocument = typeof WebhookDocument.Encoded & { readonly slot?: number }

export const toWebhookRecord = decodeDocument(WebhookDocument)
const toDocument = encodeDocument(WebhookDocument)
const toShown = (document: unknown) => Effect.map(toWebhookRecord(document), toWebhook)

const afterPosition = (after: WebhookPosition | undefined): Filter<WebhookDocument> => {
  if (after === undefined) return {}
  const createdAt = DateTime.toDateUtc(after.createdAt)
  return { $or: [{ createdAt: { $gt: createdAt } }, { createdAt, _id: { $gt: after.id } }] }
}

const slots = Array.from({ length: maxWebhooks }, (_, slot) => slot)

export const makeWebhookStore = Effect.gen(function* () {
  const writes = auditedWrites<WebhookDocument>(yield* MongoDatabase, "webhooks")
  const webhooks = writes.collection
  const change = (id: string, fields: Partial<WebhookDocument>, entry: AuditEntry) =>
    inOrganization((organizationId) =>
      duplicateIsDefect(writes.update({ _id: id, organizationId }, { $set: fields }, entry))
    ).pipe(Effect.flatMap(optionally(toShown)))
  /** Tries the free slots in turn: another instance may take one between the read and the write. */
  const insertInSlot = (
    document: WebhookDocument,
    entry: AuditEntry,
    free: ReadonlyArray<number>
  ): Effect.Effect<void, WebhookLimit | StoreUnavailable> => {
    const [slot, ...rest] = free
    if (slot === undefined) return Effect.fail(new WebhookLimit({ limit: maxWebhooks }))
    return writes
      .insert({ ...document, slot }, entry)
      .pipe(Effect.catchTag("DuplicateKey", () => insertInSlot(document, entry, rest)))
  }
  return WebhookStore.of({
    insert: (record, entry) =>
      query(() =>
        webhooks.find({ organizationId: record.organizationId }, { projection: { slot: 1 } }).toArray()
      ).pipe(
        Effect.flatMap((held) => {
          const taken = new Set(held.map((document) => document.slot))
          const free = slots.filter((slot) => !taken.has(slot))
          return insertInSlot(toDocument(record), entry, free)
        })
      ),
    page: (after, limit) =>
      inOrganization((organizationId) =>
        query(() =>
          webhooks
            .find({ organizationId, ...notRemoved, ...afterPosition(after) })
            .sort({ organizationId: 1, createdAt: 1, _id: 1 })
            .limit(limit)
            .toArray()
        )
      ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toShown))),
    find: (id) =>
      inOrganization((organizationId) =>
        query(() => webhooks.findOne({ _id: id, organizationId, ...notRemoved }))
      ).pipe(Effect.flatMap(optionally(toWebhookRecord))),
    update: (id, changes, entry) =>
      change(
        id,
        {
          ...changes,
          ...(changes.enabled === true ? { failingSince: null } : {})
        } as Partial<WebhookDocument>,
        entry
      ),
    rotate: (id, secret, previous, entry) =>
      change(
        id,
        {
          secret,
          previous:
            previous === null ? null : { secret: previous.secret, until: DateTime.toDateUtc(previous.until) }
        },
        entry
      ),
    remove: (id, entry) =>
      inOrganization((organizationId) =>
        duplicateIsDefect(writes.remove({ _id: id, organizationId }, entry))
      ).pipe(
        Effect.flatMap(optionally(toShown)),
        Effect.tap((removed) =>
          Option.isNone(removed)
            ? Effect.void
            : queryWrite(() => webhooks.db.collection("webhook_deliveries").deleteMany({ webhookId: id }))
        )
      ),
    enabledOf: (organizationId) =>
      query(() => webhooks.find({ organizationId, enabled: true, ...notRemoved }).toArray()).pipe(
        Effect.flatMap((documents) => Effect.forEach(documents, toWebhookRecord))
      ),
    organizationsWithEndpoints: query(() => webhooks.distinct("organizationId")).pipe(
      Effect.map((ids) => ids.map((id) => OrganizationId.make(String(id))))
    ),
    // Endpoints with entries still waiting for the relay stay until the next prune: an entry is never dropped.
    removeAllOf: (organizationId) =>
      queryWrite(() => webhooks.deleteMany({ organizationId, "outbox.0": { $exists: false } })).pipe(
        Effect.andThen(
          queryWrite(() => webhooks.db.collection("webhook_deliveries").deleteMany({ organizationId }))
        ),
        Effect.asVoid
      ),
    noteFailing: (id, at) =>
      queryWrite(() =>
        webhooks.findOneAndUpdate(
          { _id: id, failingSince: null },
          { $set: { failingSince: DateTime.toDateUtc(at) } },
          { returnDocument: "after" }
        )
      ).pipe(
        Effect.flatMap((updated) =>
          updated !== null
            ? Effect.succeed(at)
            : query(() => webhooks.findOne({ _id: id })).pipe(
                Effect.flatMap(optionally(toWebhookRecord)),
                Effect.map((found) => Option.getOrUndefined(found)?.failingSince ?? at)
              )
        )
      ),
    noteSuccess: (id) =>
      queryWrite(() => webhooks.updateOne({ _id: id }, { $set: { failingSince: null } })).pipe(Effect.asVoid),
    disable: (id, entry) =>
      duplicateIsDefect(writes.update({ _id: id, enabled: true }, { $set: { enabled: false } }, entry)).pipe(
        Effect.map((disabled) => disabled !== null)
      )
  })
})

export const webhookStoreLayer = Layer.effect(WebhookStore, makeWebhookStore)
