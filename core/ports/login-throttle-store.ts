import { Context, type DateTime, type Effect } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"

/**
 * Login-attempt counters in fixed time windows, shared by every instance; a sliding window is
 * estimated from two of them (see `slidingCount`). A window is named by its start; stores may
 * forget its counter after `keepUntil`. Every operation is one atomic read or write.
 */
export class LoginThrottleStore extends Context.Service<
  LoginThrottleStore,
  {
    /** Adds one attempt and returns the new count. */
    readonly increment: (
      key: string,
      windowStart: DateTime.Utc,
      keepUntil: DateTime.Utc
    ) => Effect.Effect<number, StoreUnavailable>
    /** The count of a window, 0 when nothing was counted in it. */
    readonly count: (key: string, windowStart: DateTime.Utc) => Effect.Effect<number, StoreUnavailable>
    /** Takes back one attempt that turned out to succeed. */
    readonly release: (key: string, windowStart: DateTime.Utc) => Effect.Effect<void, StoreUnavailable>
    readonly clear: (key: string, windowStart: DateTime.Utc) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/LoginThrottleStore") {}
