import { DateTime, Effect } from "effect"
import { RateLimited } from "../../model/errors.ts"
import { secondsUntilAllowed, slidingCount, throttleClientOf, windowAt } from "../../policy/throttle.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { LoginThrottleStore } from "../../ports/login-throttle-store.ts"

const defaultSignupsPerClient = 5

/**
 * Counts a signup from `client` (IPv6 by /64) in the login throttle's sliding window, before any
 * work: one address may open only a few organisations per window, whether or not they succeed.
 */
export const countSignup = Effect.fnUntraced(function* (client: string) {
  const settings = yield* AuthSettings
  const throttle = yield* LoginThrottleStore
  const window = windowAt(yield* DateTime.now, settings.throttle.window)
  const key = `signup:${throttleClientOf(client)}`
  const [current, previous] = yield* Effect.all([
    throttle.increment(key, window.start, window.keepUntil),
    throttle.count(key, window.previousStart)
  ])
  const limit = settings.throttle.maxSignupsPerClient ?? defaultSignupsPerClient
  if (slidingCount(window, current, previous) > limit) {
    return yield* new RateLimited({
      retryAfterSeconds: secondsUntilAllowed(window, current, previous, limit)
    })
  }
})
