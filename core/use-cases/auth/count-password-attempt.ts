import { DateTime, Effect } from "effect"
import { RateLimited } from "../../model/errors.ts"
import {
  secondsUntilAllowed,
  slidingCount,
  type ThrottleWindow,
  throttleClientOf,
  windowAt
} from "../../policy/throttle.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { LoginThrottleStore } from "../../ports/login-throttle-store.ts"

/**
 * Counts one password attempt before the password is checked, so a burst of parallel guesses
 * cannot slip past the limit, and a refused attempt costs no hash. Two sliding windows hold it:
 * the account from this client (IPv6 by /64), and this client over every account. Failures from
 * one address never lock the account for its owner signing in from another. Answers how to
 * settle the attempt once the password has been checked (or not).
 */
export const countPasswordAttempt = Effect.fnUntraced(function* (accountKey: string, client: string) {
  const settings = yield* AuthSettings
  const throttle = yield* LoginThrottleStore
  const window = windowAt(yield* DateTime.now, settings.throttle.window)
  const clientKey = `client:${throttleClientOf(client)}`
  const pairKey = `${accountKey}|${clientKey}`
  const counted = (key: string, limit: number) =>
    Effect.all([
      throttle.increment(key, window.start, window.keepUntil),
      throttle.count(key, window.previousStart)
    ]).pipe(Effect.map(([current, previous]) => ({ current, previous, limit })))
  const counts = yield* Effect.all([
    counted(pairKey, settings.throttle.maxFailuresPerAccount),
    counted(clientKey, settings.throttle.maxFailuresPerClient)
  ])
  const over = counts.filter(
    ({ current, previous, limit }) => slidingCount(window, current, previous) > limit
  )
  if (over.length > 0) return yield* new RateLimited({ retryAfterSeconds: retryAfter(window, over) })
  return {
    /** Refused before any password was checked: the attempt is given back, it guessed nothing. */
    giveBack: Effect.asVoid(
      Effect.all([throttle.release(pairKey, window.start), throttle.release(clientKey, window.start)])
    ),
    /** The password was right: the pair's failures are forgotten and the client's attempt given back. */
    succeeded: Effect.asVoid(
      Effect.all([
        throttle.clear(pairKey, window.start),
        throttle.clear(pairKey, window.previousStart),
        throttle.release(clientKey, window.start)
      ])
    )
  }
})

const retryAfter = (
  window: ThrottleWindow,
  over: ReadonlyArray<{ readonly current: number; readonly previous: number; readonly limit: number }>
) =>
  Math.max(
    ...over.map(({ current, previous, limit }) => secondsUntilAllowed(window, current, previous, limit))
  )
