import { Context, type DateTime, type Effect } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"

/**
 * Login-attempt counters in fixed time windows, shared by every instance. A window is named by
 * its start; stores may forget it after `windowEnd`. Every operation is one atomic write.
 */
export class LoginThrottleStore extends Context.Service<
  LoginThrottleStore,
  {
    /** Adds one attempt and returns the new count. */
    readonly increment: (
      key: string,
      windowStart: DateTime.Utc,
      windowEnd: DateTime.Utc
    ) => Effect.Effect<number, StoreUnavailable>
    /** Takes back one attempt that turned out to succeed. */
    readonly release: (key: string, windowStart: DateTime.Utc) => Effect.Effect<void, StoreUnavailable>
    readonly clear: (key: string, windowStart: DateTime.Utc) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/LoginThrottleStore") {}
