import { DateTime, Effect, Layer } from "effect"
import { LoginThrottleStore } from "../../core/index.ts"

interface Counter {
  count: number
  readonly expiresAt: number
}

export const makeLoginThrottleStore = Effect.sync(() => {
  const counters = new Map<string, Counter>()
  const id = (key: string, windowStart: DateTime.Utc) => `${key}@${DateTime.toEpochMillis(windowStart)}`
  const forgetExpired = (now: number) => {
    for (const [name, counter] of counters) if (counter.expiresAt <= now) counters.delete(name)
  }

  return LoginThrottleStore.of({
    count: (key, windowStart) => Effect.sync(() => counters.get(id(key, windowStart))?.count ?? 0),
    increment: (key, windowStart, windowEnd) =>
      Effect.sync(() => {
        forgetExpired(DateTime.toEpochMillis(windowStart))
        const name = id(key, windowStart)
        const counter = counters.get(name) ?? { count: 0, expiresAt: DateTime.toEpochMillis(windowEnd) }
        counter.count++
        counters.set(name, counter)
        return counter.count
      }),
    clear: (key, windowStart) => Effect.sync(() => void counters.delete(id(key, windowStart)))
  })
})

export const loginThrottleStoreLayer = Layer.effect(LoginThrottleStore, makeLoginThrottleStore)
