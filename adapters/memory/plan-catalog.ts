import { Effect, Layer, Option } from "effect"
import { type Plan, PlanCatalog } from "../../core/index.ts"

export const planCatalogLayer = (plans: ReadonlyArray<Plan>) =>
  Layer.succeed(
    PlanCatalog,
    PlanCatalog.of({
      list: Effect.succeed(plans),
      find: (planId) => Effect.succeed(Option.fromNullishOr(plans.find((plan) => plan.planId === planId)))
    })
  )
