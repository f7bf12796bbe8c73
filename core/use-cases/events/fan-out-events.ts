import { DateTime, Effect } from "effect"
import { type DeliveryRecord, pendingDelivery } from "../../model/delivery.ts"
import { eventOfEntry } from "../../model/event.ts"
import type { OrganizationId } from "../../model/ids.ts"
import { subscribesTo, type WebhookRecord } from "../../model/webhook.ts"
import { DeliveryStore } from "../../ports/delivery-store.ts"
import { EventSource } from "../../ports/event-source.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { WebhookStore } from "../../ports/webhook-store.ts"

/**
 * Turns a batch of the record's unsent entries into deliveries, one for each enabled endpoint of
 * the entry's organisation that takes its type and existed when the change was made; then marks
 * them sent. Deliveries are enqueued before the mark: a stop between the two enqueues them again,
 * which the store keeps once. Takes at most `limit` entries; answers how many it took.
 */
export const fanOutEvents = Effect.fnUntraced(function* (limit: number) {
  const source = yield* EventSource
  const entries = yield* source.unsent(limit)
  if (entries.length === 0) return 0
  const webhooks = yield* WebhookStore
  const ids = yield* IdGenerator
  const now = yield* DateTime.now
  const endpoints = new Map<OrganizationId, ReadonlyArray<WebhookRecord>>()
  const deliveries: Array<DeliveryRecord> = []
  for (const entry of entries) {
    const event = eventOfEntry(entry)
    if (event === undefined) continue
    let ofOrganization = endpoints.get(event.organizationId)
    if (ofOrganization === undefined) {
      ofOrganization = yield* webhooks.enabledOf(event.organizationId)
      endpoints.set(event.organizationId, ofOrganization)
    }
    for (const webhook of ofOrganization) {
      if (!subscribesTo(webhook.events, event.type) || DateTime.isGreaterThan(webhook.createdAt, entry.at))
        continue
      deliveries.push(
        pendingDelivery(
          {
            id: yield* ids.deliveryId,
            eventId: event.id,
            type: event.type,
            webhookId: webhook.id,
            organizationId: event.organizationId,
            body: event.body
          },
          now
        )
      )
    }
  }
  yield* (yield* DeliveryStore).enqueue(deliveries)
  yield* source.markSent(entries.map((entry) => entry.id))
  return entries.length
})
