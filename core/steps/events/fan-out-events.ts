import { DateTime, Effect } from "effect"
import { type DeliveryRecord, pendingDelivery } from "../../model/delivery.ts"
import { eventsOfEntry } from "../../model/event.ts"
import type { OrganizationId } from "../../model/ids.ts"
import type { PermissionSet } from "../../model/permission-set.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { mayHear, subscribesTo, type WebhookRecord } from "../../model/webhook.ts"
import { DeliveryStore } from "../../ports/delivery-store.ts"
import { EventSource } from "../../ports/event-source.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { WebhookStore } from "../../ports/webhook-store.ts"
import { creatorPermissions } from "../webhooks/creator-permissions.ts"

interface Listener {
  readonly webhook: WebhookRecord
  /** What its creator may read now: it hears nothing else. */
  readonly held: PermissionSet
}

/** An organisation's enabled endpoints, each with what its creator may read now. */
const listenersOf = (organizationId: OrganizationId) =>
  Effect.gen(function* () {
    const enabled = yield* (yield* WebhookStore).enabledOf(organizationId)
    return yield* Effect.forEach(enabled, (webhook) =>
      Effect.map(creatorPermissions(webhook.createdBy), (held): Listener => ({ webhook, held }))
    )
  }).pipe(Effect.provideService(CurrentOrganization, organizationId))

/**
 * Turns a batch of the record's unsent entries into deliveries, one for each enabled endpoint of
 * the entry's organisation that takes its type, whose creator may read it now (see
 * `creatorPermissions`), and that existed when the change was made; then marks them sent. Deliveries are enqueued before the mark: a stop between the two enqueues them again,
 * which the store keeps once. Takes at most `limit` entries; answers how many it took.
 */
export const fanOutEvents = Effect.fnUntraced(function* (limit: number) {
  const source = yield* EventSource
  const entries = yield* source.unsent(limit)
  if (entries.length === 0) return 0
  const ids = yield* IdGenerator
  const now = yield* DateTime.now
  const endpoints = new Map<OrganizationId, ReadonlyArray<Listener>>()
  const deliveries: Array<DeliveryRecord> = []
  for (const entry of entries) {
    for (const event of eventsOfEntry(entry)) {
      let ofOrganization = endpoints.get(event.organizationId)
      if (ofOrganization === undefined) {
        ofOrganization = yield* listenersOf(event.organizationId)
        endpoints.set(event.organizationId, ofOrganization)
      }
      for (const { webhook, held } of ofOrganization) {
        const hears = subscribesTo(webhook.events, event.type) && mayHear(held, event.type)
        if (!hears || DateTime.isGreaterThan(webhook.createdAt, entry.at)) continue
        deliveries.push(
          pendingDelivery(
            {
              id: yield* ids.next("delivery"),
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
  }
  yield* (yield* DeliveryStore).enqueue(deliveries)
  yield* source.markSent(entries.map((entry) => entry.id))
  return entries.length
})
