import { DateTime, Duration } from "effect"

export interface ThrottleWindow {
  readonly start: DateTime.Utc
  readonly end: DateTime.Utc
}

/** Fixed windows aligned to the epoch, so every instance names the same window alike. */
export const windowAt = (now: DateTime.Utc, length: Duration.Duration): ThrottleWindow => {
  const size = Math.max(1, Duration.toMillis(length))
  const startMillis = Math.floor(DateTime.toEpochMillis(now) / size) * size
  return {
    start: DateTime.makeUnsafe(startMillis),
    end: DateTime.makeUnsafe(startMillis + size)
  }
}

export const secondsUntil = (now: DateTime.Utc, end: DateTime.Utc): number =>
  Math.max(1, Math.ceil((DateTime.toEpochMillis(end) - DateTime.toEpochMillis(now)) / 1000))

/** How a store names one key's counter in one window: the same on every instance and store. */
export const throttleCounterId = (key: string, windowStart: DateTime.Utc): string =>
  `${key}@${DateTime.toEpochMillis(windowStart)}`
