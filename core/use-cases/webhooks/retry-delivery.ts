import { DateTime, Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { DeliveryId, WebhookId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { DeliveryStore } from "../../ports/delivery-store.ts"
import { managedWebhook } from "../../steps/webhooks/managed-webhook.ts"

/**
 * Makes a delivery due now, whatever it came to: the sender tries it within a second. An exhausted
 * one that fails again is exhausted again; a failing one keeps its schedule after.
 */
export const retryDelivery = Effect.fnUntraced(function* (
  actor: Principal,
  webhookId: WebhookId,
  id: DeliveryId
) {
  yield* managedWebhook(actor, webhookId)
  const retried = yield* (yield* DeliveryStore).retry(webhookId, id, yield* DateTime.now)
  if (Option.isNone(retried)) return yield* new NotFound({ entity: "delivery", id })
  return retried.value
})
