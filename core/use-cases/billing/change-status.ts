import { DateTime, Effect, Option } from "effect"
import type { StoreUnavailable } from "../../model/errors.ts"
import { StatusChange, Subscription, type SubscriptionStatus } from "../../model/subscription.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"

const maxAttempts = 25

/**
 * Applies `change` to the subscription with optimistic concurrency: the store writes
 * only if nobody else wrote since we read, otherwise we read again and retry.
 * `change` returns none to leave the subscription as it is.
 */
export const updateSubscription = <A>(
  initial: Subscription,
  change: (current: Subscription) => Option.Option<{ readonly next: Subscription; readonly result: A }>,
  onUnchanged: (current: Subscription) => A
): Effect.Effect<A, StoreUnavailable, SubscriptionStore> =>
  Effect.gen(function* () {
    const store = yield* SubscriptionStore
    let current = initial
    for (let attempt = 1; ; attempt++) {
      const planned = change(current)
      if (Option.isNone(planned)) return onUnchanged(current)
      if (yield* store.replace(planned.value.next)) return planned.value.result
      const reread = yield* store.findById(current.id)
      if (Option.isNone(reread) || attempt >= maxAttempts) {
        return yield* Effect.die(
          new Error(`Subscription ${current.id} kept changing under concurrent writes`)
        )
      }
      current = reread.value
    }
  })

export const withStatus = (
  subscription: Subscription,
  status: SubscriptionStatus,
  at: DateTime.Utc,
  now: DateTime.Utc,
  extra: Partial<Subscription> = {}
): Subscription =>
  new Subscription({
    ...subscription,
    ...extra,
    status,
    history:
      status === subscription.status
        ? subscription.history
        : [...subscription.history, new StatusChange({ status, at })],
    version: subscription.version + 1,
    updatedAt: now
  })

/** Cancels every other open subscription: a newly active one supersedes them, a new pending one replaces older pending ones. */
export const supersedeOthers = Effect.fnUntraced(function* (
  keep: Subscription,
  which: (other: Subscription) => boolean
) {
  const store = yield* SubscriptionStore
  const now = yield* DateTime.now
  const others = (yield* store.listOpen).filter((other) => other.id !== keep.id && which(other))
  yield* Effect.forEach(others, (other) =>
    updateSubscription(
      other,
      (current) =>
        current.status === "canceled"
          ? Option.none()
          : Option.some({ next: withStatus(current, "canceled", now, now), result: undefined }),
      () => undefined
    )
  )
})
