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

/** What is guessed: an account's password, or its second factor (a TOTP or recovery code). */
export type AttemptKind = "password" | "code"

/**
 * Counts one guess at an account's password or second factor before it is checked, so a burst of
 * parallel guesses cannot slip past the limit, and a refused guess costs no hash. Sliding windows
 * hold it: the account from this client (IPv6 by /64), its password guesses and its code guesses
 * apart but limited together, and this client over every account. Failures from one address never
 * lock the account for its owner signing in from another. Each kind forgets only its own failures
 * when it succeeds: the right password never buys fresh tries at the code. Answers how to settle
 * the attempt once the guess has been checked (or not).
 */
export const countAttempt = Effect.fnUntraced(function* (
  kind: AttemptKind,
  accountKey: string,
  client: string
) {
  const settings = yield* AuthSettings
  const throttle = yield* LoginThrottleStore
  const window = windowAt(yield* DateTime.now, settings.throttle.window)
  const clientKey = `client:${throttleClientOf(client)}`
  const pairKeys = { password: `${accountKey}|${clientKey}`, code: `${accountKey}|code|${clientKey}` }
  const ownKey = pairKeys[kind]
  const otherKey = pairKeys[kind === "password" ? "code" : "password"]
  const counted = (key: string) =>
    Effect.all([
      throttle.increment(key, window.start, window.keepUntil),
      throttle.count(key, window.previousStart)
    ])
  const [[own, ownBefore], [other, otherBefore], [fromClient, fromClientBefore]] = yield* Effect.all([
    counted(ownKey),
    Effect.all([throttle.count(otherKey, window.start), throttle.count(otherKey, window.previousStart)]),
    counted(clientKey)
  ])
  const pair = { current: own + other, previous: ownBefore + otherBefore }
  const over = [
    { ...pair, limit: settings.throttle.maxFailuresPerAccount },
    { current: fromClient, previous: fromClientBefore, limit: settings.throttle.maxFailuresPerClient }
  ].filter(({ current, previous, limit }) => slidingCount(window, current, previous) > limit)
  if (over.length > 0) return yield* new RateLimited({ retryAfterSeconds: retryAfter(window, over) })
  return {
    /** Refused before the guess was checked: the attempt is given back, it guessed nothing. */
    giveBack: Effect.asVoid(
      Effect.all([throttle.release(ownKey, window.start), throttle.release(clientKey, window.start)])
    ),
    /** The guess was right: this kind's failures are forgotten and the client's attempt given back. */
    succeeded: Effect.asVoid(
      Effect.all([
        throttle.clear(ownKey, window.start),
        throttle.clear(ownKey, window.previousStart),
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
