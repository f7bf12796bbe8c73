import { DateTime, Effect, Option } from "effect"
import { type AuditActor, changesBetween } from "../../model/audit.ts"
import { isOlderThan } from "../../model/creation-order.ts"
import { StoreUnavailable } from "../../model/errors.ts"
import { isLive, StatusChange, Subscription, type SubscriptionStatus } from "../../model/subscription.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { auditEntryOfChanges, relayAudit } from "../audit/new-audit-entry.ts"

const maxAttempts = 25

/** What the audit record shows of a subscription's changes. */
export const subscriptionFields = ["planId", "status", "providerSubscriptionId", "providerCustomerId"]

/**
 * Applies `change` with optimistic concurrency: the store writes only if nobody else wrote since
 * we read, otherwise we read again and retry. `change` returns none to leave the subscription as
 * it is. Yields the result and the subscription as it now stands.
 */
export const updateSubscription = Effect.fnUntraced(function* <A>(
  actor: AuditActor,
  initial: Subscription,
  change: (current: Subscription) => Option.Option<{ readonly next: Subscription; readonly result: A }>,
  onUnchanged: (current: Subscription) => A
) {
  const store = yield* SubscriptionStore
  let current = initial
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const planned = change(current)
    if (Option.isNone(planned)) return { result: onUnchanged(current), subscription: current }
    const { next } = planned.value
    const changes = changesBetween(current, next, subscriptionFields)
    // Only what a reader of the record cares for is an entry: not the bookkeeping of event ids.
    const entry = yield* auditEntryOfChanges(
      actor,
      "subscription.updated",
      { type: "subscription", id: next.id },
      changes
    )
    if (yield* store.replace(next, entry)) {
      yield* relayAudit(entry)
      return { result: planned.value.result, subscription: next }
    }
    const reread = yield* store.findById(current.id)
    if (Option.isNone(reread)) return yield* Effect.die(new Error(`Subscription ${current.id} vanished`))
    current = reread.value
  }
  // Contention this long is transient; failing as unavailable lets the caller (or provider) retry.
  return yield* new StoreUnavailable()
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

/**
 * The newest subscription wins: `keep` cancels the pending ones created before it and, once live,
 * the live ones created before it (a plan change). Never touching newer ones means two concurrent
 * subscribes cannot cancel each other, and running this again is harmless.
 */
export const supersedeOthers = Effect.fnUntraced(function* (actor: AuditActor, keep: Subscription) {
  const store = yield* SubscriptionStore
  const now = yield* DateTime.now
  const superseded = (yield* store.listOpen).filter(
    (other) => isOlderThan(other, keep) && (other.status === "pending" || isLive(keep))
  )
  yield* Effect.forEach(superseded, (other) =>
    updateSubscription(
      actor,
      other,
      (current) =>
        current.status === "canceled"
          ? Option.none()
          : Option.some({ next: withStatus(current, "canceled", now, now), result: undefined }),
      () => undefined
    )
  )
})
