import { DateTime, Effect, Schema } from "effect"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import {
  toWebhook,
  WebhookDescription,
  WebhookEvents,
  WebhookRecord,
  WebhookUrl
} from "../../model/webhook.ts"
import { requirePermission } from "../../policy/access.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { WebhookSender } from "../../ports/webhook-sender.ts"
import { WebhookStore } from "../../ports/webhook-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { requireHearable, webhookView } from "../../steps/webhooks/webhook-view.ts"

export const CreateWebhookInput = Schema.Struct({
  url: WebhookUrl,
  events: WebhookEvents,
  description: Schema.optionalKey(WebhookDescription)
})
export type CreateWebhookInput = typeof CreateWebhookInput.Type

/**
 * Registers an endpoint the organisation's events are posted to, enabled. It hears what its creator
 * may read, as long as they may (a type they may not read is refused). Its signing secret is
 * answered this once; it is kept sealed by the secret box.
 */
export const createWebhook = Effect.fnUntraced(function* (actor: Principal, input: CreateWebhookInput) {
  yield* requirePermission(actor, "organization.webhooks.write")
  yield* requireHearable(actor, input.events)
  yield* (yield* WebhookSender).checkDestination(input.url)
  const secret = yield* (yield* TokenIssuer).issueSigningSecret
  const record = new WebhookRecord({
    id: yield* (yield* IdGenerator).next("webhook"),
    url: input.url,
    events: input.events,
    enabled: true,
    description: input.description ?? null,
    createdAt: yield* DateTime.now,
    organizationId: yield* CurrentOrganization,
    secret: yield* (yield* SecretBox).seal(secret),
    previous: null,
    failingSince: null,
    createdBy: auditActorOf(actor)
  })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "webhook.created",
    { type: "webhook", id: record.id },
    { url: [null, record.url], events: [null, record.events], description: [null, record.description] }
  )
  yield* (yield* WebhookStore).insert(record, entry)
  return { webhook: yield* webhookView(toWebhook(record)), secret }
})
