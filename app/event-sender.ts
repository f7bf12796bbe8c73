import { Effect, Layer, Schedule } from "effect"
import { deliverEvents, pruneDeliveries, StoreWrites } from "../core/index.ts"

/** How long the sender rests when a round found nothing to do. */
const idle = "1 second"

/**
 * The outbound events' sender, in every instance: a round after another while rounds find work,
 * a second's rest when one finds none, off every request's path. Its writes keep a ledger of their
 * own; a round the store refused is logged and the next tries again. Interrupted when the service
 * stops: a try cut short is claimed again by another instance, or by this one once restarted,
 * after its lease.
 */
export const eventSender = Layer.effectDiscard(
  Effect.gen(function* () {
    const round = deliverEvents.pipe(
      Effect.map(({ fannedOut, sent }) => fannedOut + sent > 0),
      Effect.catchCause((cause) =>
        Effect.as(Effect.logWarning("Outbound events: a round failed", cause), false)
      ),
      Effect.provideService(StoreWrites, { applied: false, uncertain: false })
    )
    const rounds = Effect.forever(
      Effect.flatMap(round, (worked) => (worked ? Effect.yieldNow : Effect.sleep(idle)))
    )
    const pruning = pruneDeliveries.pipe(
      Effect.catchCause((cause) => Effect.logWarning("Outbound events: old deliveries not pruned", cause)),
      Effect.repeat(Schedule.spaced("1 hour"))
    )
    yield* Effect.forkScoped(rounds)
    yield* Effect.forkScoped(pruning)
  })
)
