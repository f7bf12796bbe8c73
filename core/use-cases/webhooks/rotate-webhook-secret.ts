import { DateTime, Duration, Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { WebhookId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { WebhookStore } from "../../ports/webhook-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { managedWebhook } from "../../steps/webhooks/managed-webhook.ts"
import { webhookView } from "../../steps/webhooks/webhook-view.ts"

/** How long a replaced secret keeps signing beside the new one, while receivers move to it. */
export const rotationOverlap = Duration.hours(24)

/** Gives an endpoint a new signing secret, answered this once; for 24 h messages carry both signatures. */
export const rotateWebhookSecret = Effect.fnUntraced(function* (actor: Principal, id: WebhookId) {
  const webhook = yield* managedWebhook(actor, id)
  const secret = yield* (yield* TokenIssuer).issueSigningSecret
  const sealed = yield* (yield* SecretBox).seal(secret)
  const until = DateTime.addDuration(yield* DateTime.now, rotationOverlap)
  const entry = yield* newAuditEntry(auditActorOf(actor), "webhook.secret_rotated", { type: "webhook", id })
  const rotated = yield* (yield* WebhookStore).rotate(id, sealed, { secret: webhook.secret, until }, entry)
  if (Option.isNone(rotated)) return yield* new NotFound({ entity: "webhook", id })
  return { webhook: yield* webhookView(rotated.value), secret }
})
