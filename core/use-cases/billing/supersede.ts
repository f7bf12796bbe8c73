import { DateTime, Effect, Option } from "effect"
import type { AuditActor } from "../../model/audit.ts"
import { isOlderThan } from "../../model/creation-order.ts"
import { isLive, type Subscription } from "../../model/subscription.ts"
import { PaymentProvider } from "../../ports/payment-provider.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { updateSubscription, withStatus } from "./subscription-writes.ts"

/**
 * The subscriptions `keep` replaces: the pending ones created before it and, once it is live, the
 * live ones created before it (a plan change). Never newer ones, so that two concurrent subscribes
 * cannot cancel each other.
 */
export const supersededBy = (keep: Subscription, open: ReadonlyArray<Subscription>) =>
  open.filter((other) => isOlderThan(other, keep) && (other.status === "pending" || isLive(keep)))

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

const sameAtProvider = (a: Subscription, b: Subscription) =>
  a.providerSubscriptionId === b.providerSubscriptionId && a.checkout?.id === b.checkout?.id

/**
 * Cancels here a subscription already released at the provider as `released`. Should it have
 * changed meanwhile (paid through its checkout after all), what it now holds is released too.
 */
export const retire = Effect.fnUntraced(function* (actor: AuditActor, released: Subscription) {
  const now = yield* DateTime.now
  yield* updateSubscription(
    actor,
    released,
    (current) =>
      current.status === "canceled"
        ? Effect.succeedNone
        : (sameAtProvider(current, released) ? Effect.void : releaseAtProvider(current)).pipe(
            Effect.as(Option.some({ next: withStatus(current, "canceled", now, now), result: undefined }))
          ),
    () => undefined
  )
})

/**
 * Supersedes what `keep` replaces, at the provider first and then here; harmless to run again.
 * `released` are subscriptions the caller already released at the provider, as it saw them.
 */
export const supersedeOthers = Effect.fnUntraced(function* (
  actor: AuditActor,
  keep: Subscription,
  released: ReadonlyArray<Subscription> = []
) {
  const open = yield* (yield* SubscriptionStore).listOpen
  yield* Effect.forEach(
    supersededBy(keep, open),
    (other) => {
      const seen = released.find((subscription) => subscription.id === other.id)
      return seen === undefined
        ? Effect.andThen(releaseAtProvider(other), retire(actor, other))
        : retire(actor, seen)
    },
    { discard: true }
  )
})
