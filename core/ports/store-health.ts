import { Context, type Effect } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"

/** Whether the store answers right now: what readiness reports. */
export class StoreHealth extends Context.Service<
  StoreHealth,
  {
    readonly ping: Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/StoreHealth") {}
