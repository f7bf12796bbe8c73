import { DateTime, Effect, Layer } from "effect"
import { LoginThrottleStore, throttleCounterId } from "../../core/index.ts"

interface Counter {
  count: number
  readonly expiresAt: number
}

export const makeLoginThrottleStore = Effect.sync(() => {
  const counters = new Map<string, Counter>()
  let prunedWindow = Number.NEGATIVE_INFINITY
  // Forget windows no longer needed once per new window, not on every attempt, so a flood stays linear.
  const pruneBefore = (windowStart: number) => {
    if (windowStart <= prunedWindow) return
    prunedWindow = windowStart
    for (const [name, counter] of counters) if (counter.expiresAt <= windowStart) counters.delete(name)
  }

  return LoginThrottleStore.of({
    increment: (key, windowStart, keepUntil) =>
      Effect.sync(() => {
        pruneBefore(DateTime.toEpochMillis(windowStart))
        const name = throttleCounterId(key, windowStart)
        const counter = counters.get(name) ?? { count: 0, expiresAt: DateTime.toEpochMillis(keepUntil) }
        counter.count++
        counters.set(name, counter)
        return counter.count
      }),
    count: (key, windowStart) =>
      Effect.sync(() => counters.get(throttleCounterId(key, windowStart))?.count ?? 0),
    release: (key, windowStart) =>
      Effect.sync(() => {
        const counter = counters.get(throttleCounterId(key, windowStart))
        if (counter !== undefined) counter.count = Math.max(0, counter.count - 1)
      }),
    clear: (key, windowStart) => Effect.sync(() => void counters.delete(throttleCounterId(key, windowStart)))
  })
})

export const loginThrottleStoreLayer = Layer.effect(LoginThrottleStore, makeLoginThrottleStore)
