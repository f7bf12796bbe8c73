import { DateTime, Effect } from "effect"
import { RateLimited } from "../../model/errors.ts"
import { secondsUntilAllowed, slidingCount, windowAt } from "../../policy/throttle.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { LoginThrottleStore } from "../../ports/login-throttle-store.ts"

/**
 * Counts one request under `key` in the login throttle's sliding window, before any work, and
 * refuses it once more than `limit` were counted: what is refused counts too, so a burst from many
 * instances at once cannot slip past the limit.
 */
export const countInWindow = Effect.fnUntraced(function* (key: string, limit: number) {
  const settings = yield* AuthSettings
  const throttle = yield* LoginThrottleStore
  const window = windowAt(yield* DateTime.now, settings.throttle.window)
  const [current, previous] = yield* Effect.all([
    throttle.increment(key, window.start, window.keepUntil),
    throttle.count(key, window.previousStart)
  ])
  if (slidingCount(window, current, previous) > limit) {
    return yield* new RateLimited({
      retryAfterSeconds: secondsUntilAllowed(window, current, previous, limit)
    })
  }
})
