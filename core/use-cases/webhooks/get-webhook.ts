import { Effect } from "effect"
import type { WebhookId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { toWebhook } from "../../model/webhook.ts"
import { managedWebhook } from "../../steps/webhooks/managed-webhook.ts"
import { webhookView } from "../../steps/webhooks/webhook-view.ts"

/** One of the organisation's endpoints with the types it is sent now, never its secret. */
export const getWebhook = (actor: Principal, id: WebhookId) =>
  Effect.flatMap(managedWebhook(actor, id, "team.read"), (webhook) => webhookView(toWebhook(webhook)))
