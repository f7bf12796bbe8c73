import { DateTime, Effect } from "effect"
import { pendingDelivery, toDelivery } from "../../model/delivery.ts"
import { messageBody } from "../../model/event.ts"
import type { WebhookId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { DeliveryStore } from "../../ports/delivery-store.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { managedWebhook } from "../../steps/webhooks/managed-webhook.ts"

/**
 * Queues a `webhook.test` event to one endpoint, due now: the sender posts it within a second, and
 * its delivery shows how that went. An endpoint disabled is sent it once enabled.
 */
export const sendTestEvent = Effect.fnUntraced(function* (actor: Principal, id: WebhookId) {
  const webhook = yield* managedWebhook(actor, id)
  const ids = yield* IdGenerator
  const now = yield* DateTime.now
  const delivery = pendingDelivery(
    {
      id: yield* ids.next("delivery"),
      eventId: yield* ids.next("event"),
      type: "webhook.test",
      webhookId: webhook.id,
      organizationId: webhook.organizationId,
      body: messageBody("webhook.test", now, {
        organizationId: webhook.organizationId,
        webhookId: webhook.id
      })
    },
    now
  )
  yield* (yield* DeliveryStore).enqueue([delivery])
  return toDelivery(delivery)
})
