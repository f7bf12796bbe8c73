import { Context, type Effect, type Option } from "effect"
import type { Plan } from "../model/plan.ts"

/** The operator's plan catalog, fixed for the life of the process. */
export class PlanCatalog extends Context.Service<
  PlanCatalog,
  {
    readonly list: Effect.Effect<ReadonlyArray<Plan>>
    readonly find: (planId: string) => Effect.Effect<Option.Option<Plan>>
  }
>()("roster/core/ports/PlanCatalog") {}
