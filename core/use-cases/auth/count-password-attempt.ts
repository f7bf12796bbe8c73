import { DateTime, Effect } from "effect"
import { RateLimited } from "../../model/errors.ts"
import { secondsUntil, windowAt } from "../../policy/throttle.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { LoginThrottleStore } from "../../ports/login-throttle-store.ts"

/**
 * Counts one password attempt against the account and against the client before the password is
 * checked, so a burst of parallel guesses cannot slip past the limit, and a refused attempt costs
 * no hash. Answers how to settle the attempt once the password has been checked (or not).
 */
export const countPasswordAttempt = Effect.fnUntraced(function* (accountKey: string, client: string) {
  const settings = yield* AuthSettings
  const throttle = yield* LoginThrottleStore
  const now = yield* DateTime.now
  const window = windowAt(now, settings.throttle.window)
  const clientKey = `client:${client}`
  const counts = yield* Effect.all([
    throttle.increment(accountKey, window.start, window.end),
    throttle.increment(clientKey, window.start, window.end)
  ])
  if (
    counts[0] > settings.throttle.maxFailuresPerAccount ||
    counts[1] > settings.throttle.maxFailuresPerClient
  ) {
    return yield* new RateLimited({ retryAfterSeconds: secondsUntil(now, window.end) })
  }
  return {
    /** Refused before any password was checked: the attempt is given back, it guessed nothing. */
    giveBack: Effect.asVoid(
      Effect.all([throttle.release(accountKey, window.start), throttle.release(clientKey, window.start)])
    ),
    /** The password was right: the account's failures are forgotten and the client's attempt given back. */
    succeeded: Effect.asVoid(
      Effect.all([throttle.clear(accountKey, window.start), throttle.release(clientKey, window.start)])
    )
  }
})
