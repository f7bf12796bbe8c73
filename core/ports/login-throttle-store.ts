import { Context, type DateTime, type Effect } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"

/**
 * Failed-login counters in fixed time windows, shared by every instance. A window
 * is named by its start; stores may forget it after `windowEnd`.
 */
export class LoginThrottleStore extends Context.Service<
  LoginThrottleStore,
  {
    readonly count: (key: string, windowStart: DateTime.Utc) => Effect.Effect<number, StoreUnavailable>
    /** Atomically adds one failure and returns the new count. */
    readonly increment: (
      key: string,
      windowStart: DateTime.Utc,
      windowEnd: DateTime.Utc
    ) => Effect.Effect<number, StoreUnavailable>
    readonly clear: (key: string, windowStart: DateTime.Utc) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/LoginThrottleStore") {}
