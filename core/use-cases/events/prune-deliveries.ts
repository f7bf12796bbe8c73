import { DateTime, Duration, Effect, Option } from "effect"
import { DeliveryStore } from "../../ports/delivery-store.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { WebhookStore } from "../../ports/webhook-store.ts"

/** How long an ended delivery stays listed, for an administrator looking back. */
export const deliveryRetention = Duration.days(30)

/**
 * Deletes the deliveries that ended longer ago than the retention, and the endpoints of deleted
 * organisations once nothing they hold is still to be tried: they outlive their organisation only
 * to be sent its `organization.deleted` event.
 */
export const pruneDeliveries = Effect.gen(function* () {
  const deliveries = yield* DeliveryStore
  yield* deliveries.prune(DateTime.subtractDuration(yield* DateTime.now, deliveryRetention))
  const webhooks = yield* WebhookStore
  const organizations = yield* OrganizationStore
  for (const organizationId of yield* webhooks.organizationsWithEndpoints) {
    if (Option.isSome(yield* organizations.findById(organizationId))) continue
    if ((yield* deliveries.unfinishedOf(organizationId)) === 0) yield* webhooks.removeAllOf(organizationId)
  }
})
