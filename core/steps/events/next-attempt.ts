import { DateTime, Duration } from "effect"
import type { DeliveryOutcome } from "../../model/delivery.ts"
import type { SendResult } from "../../ports/webhook-sender.ts"

/** How far a retry's wait may stray from the schedule, either way, so that retries do not bunch up. */
const jitter = 0.1

const isSuccess = (result: SendResult) =>
  result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300

/**
 * What a try's result makes of its delivery: succeeded on a 2xx; exhausted on 410 or after the
 * last wait of `schedule`; else failed, due again after the schedule's next wait (jittered by
 * `random`, in [0, 1)), or the receiver's `Retry-After` when that is longer.
 */
export const outcomeOf = (
  result: SendResult,
  attemptsBefore: number,
  schedule: ReadonlyArray<Duration.Duration>,
  now: DateTime.Utc,
  random: number
): DeliveryOutcome => {
  const attempts = attemptsBefore + 1
  const answer = {
    attempts,
    ...(result.statusCode === undefined ? {} : { lastStatusCode: result.statusCode }),
    ...(result.error === undefined ? {} : { lastError: result.error }),
    ...(result.response === undefined ? {} : { lastResponse: result.response })
  }
  if (isSuccess(result)) return { ...answer, status: "succeeded" }
  const wait = schedule[attempts - 1]
  if (result.statusCode === 410 || wait === undefined) return { ...answer, status: "exhausted" }
  const jittered = Duration.toMillis(wait) * (1 - jitter + 2 * jitter * random)
  const asked = (result.retryAfter ?? 0) * 1000
  return {
    ...answer,
    status: "failed",
    nextAttemptAt: DateTime.addDuration(now, Duration.millis(Math.round(Math.max(jittered, asked))))
  }
}
