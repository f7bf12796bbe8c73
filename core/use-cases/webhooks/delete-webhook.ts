import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { WebhookId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { WebhookStore } from "../../ports/webhook-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { managedWebhook } from "../../steps/webhooks/managed-webhook.ts"
import { webhookView } from "../../steps/webhooks/webhook-view.ts"

/** Deletes an endpoint with its deliveries: it is sent nothing more. */
export const deleteWebhook = Effect.fnUntraced(function* (actor: Principal, id: WebhookId) {
  const webhook = yield* managedWebhook(actor, id)
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "webhook.deleted",
    { type: "webhook", id },
    { url: [webhook.url, null] }
  )
  const removed = yield* (yield* WebhookStore).remove(id, entry)
  if (Option.isNone(removed)) return yield* new NotFound({ entity: "webhook", id })
  return yield* webhookView(removed.value)
})
