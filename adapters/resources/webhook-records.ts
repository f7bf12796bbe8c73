import { DeliveryRecord, maxWebhooks, WebhookRecord } from "../../core/index.ts"
import { resource } from "./resource.ts"

/**
 * Webhook endpoints: an organisation's listed oldest first, at most `maxWebhooks` of them whatever
 * the number of instances; their signing secrets sealed.
 */
export const webhooks = resource({
  name: "webhooks",
  schema: WebhookRecord,
  key: "id",
  columns: ["id", "organizationId", "createdAt", "enabled"],
  indexes: [["organizationId", "createdAt"]],
  capacity: { column: "organizationId", max: maxWebhooks },
  audit: "webhook",
  sealed: {
    of: (record) => (record.previous === null ? [record.secret] : [record.secret, record.previous.secret]),
    replace: (record, from, to) =>
      new WebhookRecord({
        ...record,
        secret: record.secret === from ? to : record.secret,
        previous:
          record.previous !== null && record.previous.secret === from
            ? { ...record.previous, secret: to }
            : record.previous
      })
  }
})

/**
 * Events' deliveries to endpoints: one per event and endpoint; an endpoint's listed newest first;
 * the due ones found by when they are due, and the ended ones by when they ended.
 */
export const deliveries = resource({
  name: "webhook_deliveries",
  schema: DeliveryRecord,
  key: "id",
  columns: [
    "id",
    "webhookId",
    "organizationId",
    "eventId",
    "status",
    "createdAt",
    "updatedAt",
    "nextAttemptAt",
    "leaseUntil",
    "claim"
  ],
  unique: [["webhookId", "eventId"]],
  indexes: [["webhookId", "createdAt"], ["nextAttemptAt"], ["updatedAt"], ["organizationId", "nextAttemptAt"]]
})
