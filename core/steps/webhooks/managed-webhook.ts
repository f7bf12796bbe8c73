import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { WebhookId } from "../../model/ids.ts"
import type { PermissionKey } from "../../model/permission.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { WebhookStore } from "../../ports/webhook-store.ts"

/** The organisation's endpoint `id`, for a caller holding `permission`; another's is not found. */
export const managedWebhook = Effect.fnUntraced(function* (
  actor: Principal,
  id: WebhookId,
  permission: PermissionKey = "organization.webhooks.write"
) {
  yield* requirePermission(actor, permission)
  const found = yield* (yield* WebhookStore).find(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "webhook", id })
  return found.value
})
