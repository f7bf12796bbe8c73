import { DateTime, Duration } from "effect"

/** The fixed window `now` falls in, and the one before it, whose count still weighs on a sliding window. */
export interface ThrottleWindow {
  readonly start: DateTime.Utc
  readonly end: DateTime.Utc
  readonly previousStart: DateTime.Utc
  /** How long a window's counter is needed: through the next window, where it is the previous one. */
  readonly keepUntil: DateTime.Utc
  readonly sizeMillis: number
  readonly elapsedMillis: number
}

/** Fixed windows aligned to the epoch, so every instance names the same window alike. */
export const windowAt = (now: DateTime.Utc, length: Duration.Duration): ThrottleWindow => {
  const size = Math.max(1, Duration.toMillis(length))
  const nowMillis = DateTime.toEpochMillis(now)
  const startMillis = Math.floor(nowMillis / size) * size
  return {
    start: DateTime.makeUnsafe(startMillis),
    end: DateTime.makeUnsafe(startMillis + size),
    previousStart: DateTime.makeUnsafe(startMillis - size),
    keepUntil: DateTime.makeUnsafe(startMillis + 2 * size),
    sizeMillis: size,
    elapsedMillis: nowMillis - startMillis
  }
}

/**
 * A sliding window's count, estimated from two fixed ones: the previous window weighs for the part
 * of it that still lies within one window length of now. No burst at a window's edge doubles the
 * allowance, and a limit is lifted gradually rather than all at once.
 */
export const slidingCount = (window: ThrottleWindow, current: number, previous: number): number =>
  current + previous * (1 - window.elapsedMillis / window.sizeMillis)

/** Whole seconds (at least 1) until one more attempt keeps the sliding count within `limit`. */
export const secondsUntilAllowed = (
  window: ThrottleWindow,
  current: number,
  previous: number,
  limit: number
): number => {
  const room = limit - 1
  const { sizeMillis: size, elapsedMillis: elapsed } = window
  const waitMillis =
    current <= room
      ? previous === 0
        ? 0
        : size * (1 - (room - current) / previous) - elapsed
      : size - elapsed + size * (1 - room / current)
  return Math.max(1, Math.ceil(Math.round(waitMillis) / 1000))
}

/** How a store names one key's counter in one window: the same on every instance and store. */
export const throttleCounterId = (key: string, windowStart: DateTime.Utc): string =>
  `${key}@${DateTime.toEpochMillis(windowStart)}`

const expandIpv6 = (address: string): ReadonlyArray<string> | undefined => {
  const [head, tail, ...rest] = address.split("::") as [string, ...Array<string>]
  if (rest.length > 0) return undefined
  const headGroups = head === "" ? [] : head.split(":")
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":")
  const missing = 8 - headGroups.length - tailGroups.length
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined
  const groups = [...headGroups, ...Array.from({ length: missing }, () => "0"), ...tailGroups]
  return groups.every((group) => /^[0-9a-f]{1,4}$/u.test(group)) ? groups : undefined
}

/**
 * Who a client is, for throttling: an IPv4 address as it is, an IPv6 address by its /64 (one host
 * is commonly given a whole /64, and would otherwise rotate through it), an IPv4-mapped IPv6
 * address as the IPv4 address. Anything else is counted as given.
 */
export const throttleClientOf = (address: string): string => {
  const lowered = address
    .toLowerCase()
    .replace(/^\[|\]$/gu, "")
    // Stryker disable next-line Regex: nothing follows a zone's name, so where the match ends is the end
    .replace(/%.*$/u, "")
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/u.exec(lowered)
  if (mapped?.[1] !== undefined) return mapped[1]
  const groups = expandIpv6(lowered)
  if (groups === undefined) return address
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`
}
