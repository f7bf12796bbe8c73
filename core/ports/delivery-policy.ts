import { Context, type Duration } from "effect"

/** When deliveries are tried again, and how the sender works through them. */
export class DeliveryPolicy extends Context.Service<
  DeliveryPolicy,
  {
    /** The waits between tries: one try more than waits, then the delivery is exhausted. */
    readonly retrySchedule: ReadonlyArray<Duration.Duration>
    /** An endpoint failing this long without a success is disabled. */
    readonly disableAfter: Duration.Duration
    /** How long a claim holds: far past a try's timeout, so that only a dead sender's expires. */
    readonly lease: Duration.Duration
    /** Deliveries claimed, and entries turned into deliveries, at once. */
    readonly batchSize: number
  }
>()("roster/core/ports/DeliveryPolicy") {}
