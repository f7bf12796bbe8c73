import { DateTime, Effect, Option } from "effect"
import type { AuditActor } from "../../model/audit.ts"
import { isOlderThan } from "../../model/creation-order.ts"
import { isInForce, type Subscription } from "../../model/subscription.ts"
import { PaymentProvider } from "../../ports/payment-provider.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { updateSubscription, withStatus } from "./subscription-writes.ts"

/**
 * Whether `successor` replaces `other`: a pending one created before it, or, once `successor` is in
 * force, one in force created before it (a plan change). Never a newer one, so that two concurrent subscribes
 * cannot cancel each other, and never one in force for a `successor` still unpaid.
 */
export const isSupersededBy = (successor: Subscription) => (other: Subscription) =>
  other.status !== "canceled" &&
  isOlderThan(other, successor) &&
  (other.status === "pending" || isInForce(successor))

/** Lets go of a subscription at the provider: what it pays for ends now, an unpaid checkout closes. */
export const releaseAtProvider = Effect.fnUntraced(function* (subscription: Subscription) {
  const provider = yield* PaymentProvider
  const { providerSubscriptionId } = subscription
  if (providerSubscriptionId !== undefined) {
    return yield* provider.cancelNow({ subscriptionId: subscription.id, providerSubscriptionId })
  }
  if (subscription.checkout !== undefined)
    yield* provider.closeCheckout(subscription.id, subscription.checkout)
})

// A subscription's checkout is fixed when it is opened: only the provider's subscription id can
// appear (or change) after it was seen.
const sameAtProvider = (a: Subscription, b: Subscription) =>
  a.providerSubscriptionId === b.providerSubscriptionId

/**
 * Cancels here a subscription already released at the provider as `released`, as long as
 * `stillEnds` holds for it as it now stands. Should it hold something else at the provider by now
 * (a checkout paid after all), that is released too.
 */
export const retire = Effect.fnUntraced(function* (
  actor: AuditActor,
  released: Subscription,
  stillEnds: (current: Subscription) => boolean
) {
  const now = yield* DateTime.now
  yield* updateSubscription(
    actor,
    released,
    (current) =>
      !stillEnds(current)
        ? Effect.succeedNone
        : (sameAtProvider(current, released) ? Effect.void : releaseAtProvider(current)).pipe(
            Effect.as(Option.some({ next: withStatus(current, "canceled", now, now), result: undefined }))
          ),
    () => undefined
  )
})

/**
 * Supersedes what `successor` replaces, at the provider first and then here; harmless to run again.
 * `released` are subscriptions the caller already released at the provider, as it saw them.
 */
export const supersedeOthers = Effect.fnUntraced(function* (
  actor: AuditActor,
  successor: Subscription,
  released: ReadonlyArray<Subscription> = []
) {
  const ends = isSupersededBy(successor)
  const open = yield* (yield* SubscriptionStore).listOpen
  yield* Effect.forEach(open.filter(ends), (other) => {
    const seen = released.find((subscription) => subscription.id === other.id)
    return seen === undefined
      ? Effect.andThen(releaseAtProvider(other), retire(actor, other, ends))
      : retire(actor, seen, ends)
  })
})
