import { Effect } from "effect"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { PlanCatalog } from "../../ports/plan-catalog.ts"

export const listPlans = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "billing.read")
  return yield* (yield* PlanCatalog).list
})
