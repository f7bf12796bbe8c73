import { Effect, Schema } from "effect"
import { type Delivery, DeliveryPosition, DeliveryStatus } from "../../model/delivery.ts"
import type { WebhookId } from "../../model/ids.ts"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { DeliveryStore } from "../../ports/delivery-store.ts"
import { managedWebhook } from "../../steps/webhooks/managed-webhook.ts"

export const ListDeliveriesInput = Schema.Struct({
  status: Schema.optionalKey(DeliveryStatus),
  limit: Schema.optionalKey(PageLimit),
  after: Schema.optionalKey(DeliveryPosition)
})
export type ListDeliveriesInput = typeof ListDeliveriesInput.Type

/** One page of an endpoint's deliveries, newest first, of one status when asked. */
export const listDeliveries = Effect.fnUntraced(function* (
  actor: Principal,
  webhookId: WebhookId,
  input: ListDeliveriesInput = {}
) {
  yield* managedWebhook(actor, webhookId, "team.read")
  const limit = input.limit ?? defaultPageLimit
  const rows = yield* (yield* DeliveryStore).page(webhookId, input.status, input.after, limit + 1)
  const page: Page<Delivery, DeliveryPosition> = pageOf(rows, limit, ({ createdAt, id }) => ({
    createdAt,
    id
  }))
  return page
})
