import { Effect } from "effect"
import { Forbidden } from "../../model/errors.ts"
import { type EventType, eventCatalog } from "../../model/event-catalog.ts"
import type { Principal } from "../../model/principal.ts"
import { heardTypes, mayHear, type Webhook, type WebhookEvents, WebhookView } from "../../model/webhook.ts"
import { permissionsOf } from "../../policy/access.ts"
import { creatorPermissions } from "./creator-permissions.ts"

/** An endpoint as shown: with the types it is sent now, as its creator's permissions allow. */
export const webhookView = Effect.fnUntraced(function* (webhook: Webhook) {
  const held = yield* creatorPermissions(webhook.createdBy)
  return new WebhookView(
    { ...webhook, effectiveEvents: heardTypes(webhook.events, held) },
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: checking a checked record again changes its cost, never its result
    { disableChecks: true }
  )
})

/**
 * An endpoint hears only what its creator may read through the API: each type asked for by name
 * must be one the caller may read (else 403 naming the permission it lacks); `*` asks for those.
 */
export const requireHearable = (actor: Principal, events: WebhookEvents): Effect.Effect<void, Forbidden> => {
  const held = permissionsOf(actor)
  const named = events.filter((type): type is EventType => type !== "*")
  const unreadable = named.find((type) => !mayHear(held, type))
  return unreadable === undefined
    ? Effect.void
    : Effect.fail(
        new Forbidden({ reason: "missing_permission", permission: eventCatalog[unreadable].readableWith })
      )
}
