import { DateTime, Effect, Option } from "effect"
import type { Principal } from "../../model/principal.ts"
import type { Subscription } from "../../model/subscription.ts"
import { requirePermission } from "../../policy/access.ts"
import { PaymentProvider } from "../../ports/payment-provider.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { auditActorOf } from "../../steps/audit/new-audit-entry.ts"
import { findCurrentSubscription } from "../../steps/billing/current-subscription.ts"
import { updateSubscription, withStatus } from "../../steps/billing/subscription-writes.ts"
import { releaseAtProvider, retire } from "../../steps/billing/supersede.ts"

/** What canceling `current` makes of it, after asking the provider what it must. */
const cancellationOf = (current: Subscription, now: DateTime.Utc) =>
  Effect.gen(function* () {
    const canceled = () => Option.some({ next: withStatus(current, "canceled", now, now), result: undefined })
    const { providerSubscriptionId } = current
    if (current.status === "canceled" || current.status === "canceling") return Option.none()
    if (current.status === "pending" || providerSubscriptionId === undefined) {
      yield* releaseAtProvider(current)
      return canceled()
    }
    const cancellation = yield* (yield* PaymentProvider).cancelAtPeriodEnd(
      { subscriptionId: current.id, providerSubscriptionId },
      current.version
    )
    if (cancellation._tag === "Immediate") return canceled()
    const next = withStatus(current, "canceling", now, now, { cancelAt: cancellation.endsAt })
    return Option.some({ next, result: undefined })
  })

const isPending = (subscription: Subscription) => subscription.status === "pending"

/**
 * Cancels the organisation's subscription. One the provider bills ends when its paid period ends:
 * `canceling` until the provider confirms it canceled. An unpaid one, a free one, or any without a
 * provider ends at once. Already canceled or canceling: answered as it is, nothing asked again.
 * A plan change still waiting for its payment is called off with it (its checkout closed), so
 * nothing is left that could still be paid. Every provider call comes before the first write.
 */
export const cancelSubscription = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "billing.subscribe")
  const current = yield* findCurrentSubscription
  const waiting = (yield* (yield* SubscriptionStore).listOpen).filter(
    (other) => isPending(other) && other.id !== current.id
  )
  yield* Effect.forEach(waiting, releaseAtProvider)
  const now = yield* DateTime.now
  const { subscription } = yield* updateSubscription(
    auditActorOf(actor),
    current,
    (latest) => cancellationOf(latest, now),
    () => undefined
  )
  yield* Effect.forEach(waiting, (other) => retire(auditActorOf(actor), other, isPending))
  return subscription
})
