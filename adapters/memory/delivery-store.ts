import { randomUUID } from "node:crypto"
import { DateTime, Effect, Layer, Option } from "effect"
import {
  byCreation,
  type ClaimedDelivery,
  type DeliveryRecord,
  DeliveryStore,
  isOlderThan,
  retried,
  settled,
  syncInOrganization,
  toDelivery
} from "../../core/index.ts"
import { deliveryKeyOf, MemoryWebhookState } from "./webhook-state.ts"

/** When a delivery is due, in milliseconds; never when it is not. */
const dueAt = (record: DeliveryRecord) =>
  record.nextAttemptAt === undefined ? Number.POSITIVE_INFINITY : DateTime.toEpochMillis(record.nextAttemptAt)

export const deliveryStoreLayer = Layer.effect(
  DeliveryStore,
  Effect.gen(function* () {
    const { webhooks, deliveries, deliveryKeys: keys } = yield* MemoryWebhookState
    const ofEndpoint = (organizationId: string, webhookId: string, id: string) =>
      Option.filter(
        Option.fromNullishOr(deliveries.get(id)),
        ({ record }) => record.webhookId === webhookId && record.organizationId === organizationId
      )
    return DeliveryStore.of({
      enqueue: (records) =>
        Effect.sync(() => {
          for (const record of records) {
            if (keys.has(deliveryKeyOf(record))) continue
            keys.add(deliveryKeyOf(record))
            deliveries.set(record.id, { record })
          }
        }),
      page: (webhookId, status, after, limit) =>
        syncInOrganization((organizationId) =>
          [...deliveries.values()]
            .map(({ record }) => record)
            .filter(
              (record) =>
                record.webhookId === webhookId &&
                record.organizationId === organizationId &&
                (status === undefined || record.status === status) &&
                (after === undefined || isOlderThan(record, after))
            )
            .sort((a, b) => byCreation(b, a))
            .slice(0, limit)
            .map(toDelivery)
        ),
      find: (webhookId, id) =>
        syncInOrganization((organizationId) =>
          Option.map(ofEndpoint(organizationId, webhookId, id), ({ record }) => toDelivery(record))
        ),
      retry: (webhookId, id, now) =>
        syncInOrganization((organizationId) =>
          Option.map(ofEndpoint(organizationId, webhookId, id), (held) => {
            const record = retried(held.record, now)
            deliveries.set(id, { ...held, record })
            return toDelivery(record)
          })
        ),
      claimDue: (now, leaseUntil, limit) =>
        Effect.sync(() => {
          const at = DateTime.toEpochMillis(now)
          const claimed: Array<ClaimedDelivery> = []
          for (const [id, held] of deliveries) {
            if (claimed.length === limit) break
            const webhook = webhooks.get(held.record.webhookId)
            if (webhook === undefined || !webhook.enabled || dueAt(held.record) > at) continue
            if (held.claim !== undefined && held.claim.until > at) continue
            const claim = { token: randomUUID(), until: DateTime.toEpochMillis(leaseUntil) }
            deliveries.set(id, { ...held, claim })
            claimed.push({ delivery: held.record, webhook, claim: claim.token })
          }
          return claimed
        }),
      settle: (id, claim, outcome, now) =>
        Effect.sync(() => {
          const held = deliveries.get(id)
          if (held?.claim?.token !== claim) return false
          const next = settled(held.record, outcome, now)
          deliveries.set(id, {
            record: next
          })
          return true
        }),
      unfinishedOf: (organizationId) =>
        Effect.sync(
          () =>
            [...deliveries.values()].filter(
              ({ record }) => record.organizationId === organizationId && record.nextAttemptAt !== undefined
            ).length
        ),
      prune: (before) =>
        Effect.sync(() => {
          for (const [id, { record }] of deliveries) {
            const ended = record.status === "succeeded" || record.status === "exhausted"
            if (ended && DateTime.isLessThan(record.updatedAt, before)) {
              deliveries.delete(id)
              keys.delete(deliveryKeyOf(record))
            }
          }
        })
    })
  })
)
