import { DateTime, type Duration } from "effect"
import { retiredKeyMargin, type SigningKey } from "../model/signing-key.ts"

const bySequence = (keys: ReadonlyArray<SigningKey>) => [...keys].sort((a, b) => a.sequence - b.sequence)

/**
 * The key that signs at `now`: of those whose time to sign has come, the newest. When none has
 * come yet (every key was made to sign later), the one that comes first, rather than no token.
 */
export const signingKeyAt = (keys: ReadonlyArray<SigningKey>, now: DateTime.Utc): SigningKey | undefined => {
  // One key, the common case between rotations, signs whenever it was made to: no lists to sort.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the lists below pick the same key
  if (keys.length === 1) return keys[0]
  const ordered = bySequence(keys)
  const come = ordered.filter((key) => DateTime.isLessThanOrEqualTo(key.signsFrom, now))
  if (come.length > 0) return come[come.length - 1]
  return [...ordered].sort(
    (a, b) => DateTime.toEpochMillis(a.signsFrom) - DateTime.toEpochMillis(b.signsFrom)
  )[0]
}

/**
 * When `key` stopped signing: the time a newer key began to (none while it still signs, or may
 * sign again because the newer ones have not begun).
 */
const stoppedAt = (key: SigningKey, keys: ReadonlyArray<SigningKey>, now: DateTime.Utc) => {
  const successors = keys.filter(
    (other) =>
      other.sequence > key.sequence &&
      DateTime.isLessThanOrEqualTo(other.signsFrom, now) &&
      DateTime.isGreaterThanOrEqualTo(other.signsFrom, key.signsFrom)
  )
  if (successors.length === 0) return undefined
  return successors.map((other) => other.signsFrom).reduce((a, b) => DateTime.min(a, b))
}

/**
 * The keys verifiers must know at `now`: every key that signs or will, and each that stopped less
 * than a token's lifetime and a minute ago (its last tokens may still be out). The others are
 * retired: published no more, and removed at the next rotation.
 */
export const publishedKeysAt = (
  keys: ReadonlyArray<SigningKey>,
  now: DateTime.Utc,
  tokenLifetime: Duration.Duration
): ReadonlyArray<SigningKey> =>
  bySequence(keys).filter((key) => {
    const stopped = stoppedAt(key, keys, now)
    if (stopped === undefined) return true
    const until = DateTime.addDuration(DateTime.addDuration(stopped, tokenLifetime), retiredKeyMargin)
    return DateTime.isLessThan(now, until)
  })
