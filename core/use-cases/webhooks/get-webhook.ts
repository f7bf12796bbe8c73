import { Effect } from "effect"
import type { WebhookId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { toWebhook } from "../../model/webhook.ts"
import { managedWebhook } from "./managed-webhook.ts"

/** One of the organisation's endpoints, never its secret. */
export const getWebhook = (actor: Principal, id: WebhookId) =>
  Effect.map(managedWebhook(actor, id, "team.read"), toWebhook)
