import { Effect, Layer, Option } from "effect"
import {
  byCreation,
  isOlderThan,
  maxWebhooks,
  syncInOrganization,
  toWebhook,
  WebhookLimit,
  WebhookRecord,
  WebhookStore
} from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"
import { MemoryWebhookState } from "./webhook-state.ts"

const changed = (record: WebhookRecord, fields: Partial<WebhookRecord>) =>
  new WebhookRecord({ ...record, ...fields }, { disableChecks: true })

export const webhookStoreLayer = Layer.effect(
  WebhookStore,
  Effect.gen(function* () {
    const trail = yield* MemoryAuditTrail
    const { webhooks, deliveries, deliveryKeys } = yield* MemoryWebhookState
    const ofOrganization = (organizationId: string, id: string) =>
      Option.filter(
        Option.fromNullishOr(webhooks.get(id)),
        (webhook) => webhook.organizationId === organizationId
      )
    const change = (
      id: string,
      fields: (record: WebhookRecord) => Partial<WebhookRecord>,
      entry: Parameters<typeof trail.append>[0]
    ) =>
      syncInOrganization((organizationId) =>
        Option.map(ofOrganization(organizationId, id), (record) => {
          const next = changed(record, fields(record))
          webhooks.set(id, next)
          trail.append(entry)
          return toWebhook(next)
        })
      )
    /** Deletes an endpoint with its deliveries. */
    const forget = (id: string) => {
      webhooks.delete(id)
      for (const [deliveryId, { record: delivery }] of deliveries) {
        if (delivery.webhookId === id) deliveries.delete(deliveryId)
      }
      for (const key of deliveryKeys) if (key.startsWith(`${id} `)) deliveryKeys.delete(key)
    }
    const held = (organizationId: string) =>
      [...webhooks.values()].filter((webhook) => webhook.organizationId === organizationId)

    return WebhookStore.of({
      insert: (record, entry) =>
        Effect.suspend(() => {
          if (held(record.organizationId).length >= maxWebhooks) {
            return Effect.fail(new WebhookLimit({ limit: maxWebhooks }))
          }
          webhooks.set(record.id, record)
          trail.append(entry)
          return Effect.void
        }),
      page: (after, limit) =>
        syncInOrganization((organizationId) =>
          held(organizationId)
            .filter((webhook) => after === undefined || isOlderThan(after, webhook))
            .sort(byCreation)
            .slice(0, limit)
            .map(toWebhook)
        ),
      find: (id) => syncInOrganization((organizationId) => ofOrganization(organizationId, id)),
      update: (id, changes, entry) =>
        change(
          id,
          () => ({ ...changes, ...(changes.enabled === true ? { failingSince: null } : {}) }),
          entry
        ),
      rotate: (id, secret, previous, entry) => change(id, () => ({ secret, previous }), entry),
      remove: (id, entry) =>
        syncInOrganization((organizationId) =>
          Option.map(ofOrganization(organizationId, id), (record) => {
            forget(id)
            trail.append(entry)
            return toWebhook(record)
          })
        ),
      enabledOf: (organizationId) =>
        Effect.sync(() => held(organizationId).filter((webhook) => webhook.enabled)),
      organizationsWithEndpoints: Effect.sync(() => [
        ...new Set([...webhooks.values()].map((webhook) => webhook.organizationId))
      ]),
      removeAllOf: (organizationId) =>
        Effect.sync(() => {
          for (const webhook of held(organizationId)) forget(webhook.id)
        }),
      noteFailing: (id, at) =>
        Effect.sync(() => {
          const record = webhooks.get(id)
          if (record === undefined) return at
          if (record.failingSince !== null) return record.failingSince
          webhooks.set(id, changed(record, { failingSince: at }))
          return at
        }),
      noteSuccess: (id) =>
        Effect.sync(() => {
          const record = webhooks.get(id)
          if (record !== undefined) webhooks.set(id, changed(record, { failingSince: null }))
        }),
      disable: (id, entry) =>
        Effect.sync(() => {
          const record = webhooks.get(id)
          if (record === undefined || !record.enabled) return false
          webhooks.set(id, changed(record, { enabled: false }))
          trail.append(entry)
          return true
        })
    })
  })
)
