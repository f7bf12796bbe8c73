import { Effect } from "effect"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { findCurrentSubscription } from "../../steps/billing/current-subscription.ts"

export const currentSubscription = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "billing.read")
  return yield* findCurrentSubscription
})
