import { Effect, Schema } from "effect"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { WebhookPosition, type WebhookView } from "../../model/webhook.ts"
import { requirePermission } from "../../policy/access.ts"
import { WebhookStore } from "../../ports/webhook-store.ts"
import { webhookView } from "../../steps/webhooks/webhook-view.ts"

export const ListWebhooksInput = Schema.Struct({
  limit: Schema.optionalKey(PageLimit),
  after: Schema.optionalKey(WebhookPosition)
})
export type ListWebhooksInput = typeof ListWebhooksInput.Type

/** One page of the organisation's endpoints, oldest first, with what each is sent now, never their secrets. */
export const listWebhooks = Effect.fnUntraced(function* (actor: Principal, input: ListWebhooksInput = {}) {
  yield* requirePermission(actor, "team.read")
  const limit = input.limit ?? defaultPageLimit
  const rows = yield* (yield* WebhookStore).page(input.after, limit + 1)
  const views = yield* Effect.forEach(rows, webhookView)
  const page: Page<WebhookView, WebhookPosition> = pageOf(views, limit, ({ createdAt, id }) => ({
    createdAt,
    id
  }))
  return page
})
