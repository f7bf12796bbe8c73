import { type DateTime, Effect, Option } from "effect"
import { type AuditActor, changesBetween } from "../../model/audit.ts"
import { StoreUnavailable } from "../../model/errors.ts"
import { StatusChange, Subscription, type SubscriptionStatus } from "../../model/subscription.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { auditEntryOfChanges } from "../audit/new-audit-entry.ts"

const maxAttempts = 25

/**
 * What the audit record shows of a subscription's changes. The seat count is bookkeeping that
 * follows the members' own (recorded) changes, like the event ids, so it is not an entry of its own.
 */
export const subscriptionFields = ["planId", "status", "providerSubscriptionId", "providerCustomerId"]

export interface Planned<A> {
  readonly next: Subscription
  readonly result: A
}

/**
 * Applies `change` with optimistic concurrency: the store writes only if nobody else wrote since
 * we read, otherwise we read again and retry. `change` returns none to leave the subscription as
 * it is; it may call the provider first, so what it asks of the provider must be idempotent.
 * Yields the result and the subscription as it now stands. Without an `actor` the change is
 * bookkeeping (the seat count), which the record does not show.
 */
export const updateSubscription = Effect.fnUntraced(function* <A, E, R>(
  actor: AuditActor | undefined,
  initial: Subscription,
  change: (current: Subscription) => Effect.Effect<Option.Option<Planned<A>>, E, R>,
  onUnchanged: (current: Subscription) => A
) {
  const store = yield* SubscriptionStore
  let current = initial
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const planned = yield* change(current)
    if (Option.isNone(planned)) return { result: onUnchanged(current), subscription: current }
    const { next } = planned.value
    // Only what a reader of the record cares for is an entry: not the bookkeeping of event ids.
    const entry =
      // Stryker disable next-line ConditionalExpression: without an actor the change is the seat count, which no recorded field shows
      actor === undefined
        ? undefined
        : yield* auditEntryOfChanges(
            actor,
            "subscription.updated",
            { type: "subscription", id: next.id },
            changesBetween(current, next, subscriptionFields)
          )
    if (yield* store.replace(next, entry)) {
      return { result: planned.value.result, subscription: next }
    }
    const reread = yield* store.findById(current.id)
    if (Option.isNone(reread)) return yield* Effect.die(new Error(`Subscription ${current.id} vanished`))
    current = reread.value
  }
  // Contention this long is transient; failing as unavailable lets the caller (or provider) retry.
  return yield* new StoreUnavailable()
})

/** `subscription`'s next version: `status` since `at`, with `extra` fields set. */
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

/** The same subscription with `fields` set (or removed, when undefined), as its next version. */
export const withFields = (subscription: Subscription, now: DateTime.Utc, fields: Partial<Subscription>) =>
  withStatus(subscription, subscription.status, now, now, fields)
