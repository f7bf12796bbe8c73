import { Effect, Layer, Schedule } from "effect"
import { RequestsStarted } from "../adapters/http/index.ts"
import { deliverEvents, pruneDeliveries, StoreWrites } from "../core/index.ts"

/** How long the sender rests when a round found nothing to do. */
const idleRest = "1 second"
/**
 * Requests a second past which the instance counts as busy: the sender then takes `trickle` of each
 * kind a round and rests `busyRest` between rounds (at most 20 tries a second), so that it costs the
 * requests little; below it, it works through its backlog as fast as the store and receivers allow.
 */
const busyRate = 100
const trickle = 4
const busyRest = "200 millis"

/**
 * The outbound events' sender, in every instance, off every request's path: a round after another
 * while rounds find work, a second's rest when one finds none, and few at a time while the
 * instance is busy with requests (counted by the edge). Its writes keep a ledger of their own; a
 * round the store refused is logged and the next tries again. Interrupted when the service stops:
 * a try cut short is claimed again by another instance, or by this one once restarted, after its
 * lease.
 */
export const eventSender = Layer.effectDiscard(
  Effect.gen(function* () {
    const requests = yield* RequestsStarted
    let counted = requests.started
    let countedAt = Date.now()
    const isBusy = () => {
      const now = Date.now()
      const rate = ((requests.started - counted) * 1000) / Math.max(1, now - countedAt)
      counted = requests.started
      countedAt = now
      return rate > busyRate
    }
    const round = Effect.suspend(() => {
      const busy = isBusy()
      return deliverEvents(busy ? trickle : undefined).pipe(
        Effect.flatMap(({ fannedOut, sent }) =>
          fannedOut + sent === 0 ? Effect.sleep(idleRest) : busy ? Effect.sleep(busyRest) : Effect.yieldNow
        ),
        Effect.catchCause((cause) =>
          Effect.andThen(Effect.logWarning("Outbound events: a round failed", cause), Effect.sleep(idleRest))
        ),
        Effect.provideService(StoreWrites, { applied: false, uncertain: false })
      )
    })
    const pruning = pruneDeliveries.pipe(
      Effect.catchCause((cause) => Effect.logWarning("Outbound events: old deliveries not pruned", cause)),
      Effect.repeat(Schedule.spaced("1 hour"))
    )
    yield* Effect.forkScoped(Effect.forever(round))
    yield* Effect.forkScoped(pruning)
  })
)
