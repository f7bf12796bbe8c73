import { Effect, Option, Schema } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { NotFound } from "../../model/errors.ts"
import type { WebhookId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { toWebhook, WebhookDescription, WebhookEvents, WebhookUrl } from "../../model/webhook.ts"
import { WebhookSender } from "../../ports/webhook-sender.ts"
import { WebhookStore } from "../../ports/webhook-store.ts"
import { auditActorOf, auditEntryOfChanges } from "../../steps/audit/new-audit-entry.ts"
import { managedWebhook } from "../../steps/webhooks/managed-webhook.ts"
import { requireHearable, webhookView } from "../../steps/webhooks/webhook-view.ts"

export const UpdateWebhookInput = Schema.Struct({
  url: Schema.optionalKey(WebhookUrl),
  events: Schema.optionalKey(WebhookEvents),
  enabled: Schema.optionalKey(Schema.Boolean),
  description: Schema.optionalKey(Schema.NullOr(WebhookDescription))
})
export type UpdateWebhookInput = typeof UpdateWebhookInput.Type

const fields = ["url", "events", "enabled", "description"]

/**
 * Changes an endpoint's URL, events, description, or whether it is sent anything; enabling it
 * again forgets its failures. Events named must be ones the caller may read; the endpoint still
 * hears as its creator. A change that changes nothing writes nothing.
 */
export const updateWebhook = Effect.fnUntraced(function* (
  actor: Principal,
  id: WebhookId,
  input: UpdateWebhookInput
) {
  const webhook = yield* managedWebhook(actor, id)
  if (input.events !== undefined) yield* requireHearable(actor, input.events)
  if (input.url !== undefined && input.url !== webhook.url) {
    yield* (yield* WebhookSender).checkDestination(input.url)
  }
  const changes = changesBetween(webhook, { ...webhook, ...input }, fields)
  const entry = yield* auditEntryOfChanges(
    auditActorOf(actor),
    "webhook.updated",
    { type: "webhook", id },
    changes
  )
  if (entry === undefined) return yield* webhookView(toWebhook(webhook))
  const changed = Object.fromEntries(Object.entries(changes).map(([field, [, value]]) => [field, value]))
  const updated = yield* (yield* WebhookStore).update(id, changed, entry)
  if (Option.isNone(updated)) return yield* new NotFound({ entity: "webhook", id })
  return yield* webhookView(updated.value)
})
