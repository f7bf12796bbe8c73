import { Config, Duration, Effect, Option } from "effect"
import { readEnvironment, refuse } from "./startup-error.ts"

const environment = Config.all({
  schedule: Config.String("ROSTER_WEBHOOK_RETRY_SCHEDULE").pipe(Config.option),
  lease: Config.Int("ROSTER_WEBHOOK_LEASE").pipe(Config.option),
  allowPrivate: Config.Literals(["on", "off"], "ROSTER_WEBHOOK_ALLOW_PRIVATE").pipe(
    Config.withDefault("off" as const)
  )
})

/** How outbound events are sent: the rules of their destinations, and the waits between tries. */
export interface OutboundEventSettings {
  /** `ROSTER_WEBHOOK_ALLOW_PRIVATE=on`: http and private addresses allowed (tests, private networks). */
  readonly allowPrivate: boolean
  /** `ROSTER_WEBHOOK_RETRY_SCHEDULE`, seconds comma-separated; Svix's schedule when absent. */
  readonly retrySchedule?: ReadonlyArray<Duration.Duration>
  /** `ROSTER_WEBHOOK_LEASE`, seconds a claimed try is held (past its 15 s); 120 when absent. */
  readonly lease?: Duration.Duration
}

export const loadOutboundEventSettings = Effect.gen(function* () {
  const { schedule, lease, allowPrivate } = yield* readEnvironment(environment)
  if (Option.isSome(lease) && (lease.value < 1 || lease.value > 3600)) {
    return yield* refuse("ROSTER_WEBHOOK_LEASE must be 1 to 3600 seconds")
  }
  const settings: OutboundEventSettings = {
    allowPrivate: allowPrivate === "on",
    ...(Option.isSome(lease) ? { lease: Duration.seconds(lease.value) } : {})
  }
  if (Option.isNone(schedule)) return settings
  const waits = schedule.value.split(",").map((wait) => wait.trim())
  if (waits.some((wait) => !/^\d+(\.\d+)?$/.test(wait)) || waits.length > 20) {
    return yield* refuse(
      "ROSTER_WEBHOOK_RETRY_SCHEDULE must be up to 20 waits in seconds, comma-separated (e.g. 5,300,1800)"
    )
  }
  return { ...settings, retrySchedule: waits.map((wait) => Duration.millis(Number(wait) * 1000)) }
})
