import { DateTime, Effect, Option, Schema } from "effect"
import type { AuditActor } from "../../model/audit.ts"
import {
  InboxEntry,
  type PaymentEvent,
  type PaymentOutcome,
  targetStatus
} from "../../model/payment-event.ts"
import { canTransition, isLive, recentEventLimit, type Subscription } from "../../model/subscription.ts"
import { PaymentInbox } from "../../ports/payment-inbox.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { supersedeOthers, updateSubscription, withStatus } from "./subscription-writes.ts"

export const PaymentReceipt = Schema.Struct({
  eventType: Schema.String,
  payload: Schema.String
})
export type PaymentReceipt = typeof PaymentReceipt.Type

const provider: AuditActor = { kind: "provider" }

const findTarget = Effect.fnUntraced(function* (event: PaymentEvent) {
  const store = yield* SubscriptionStore
  if (event.subscriptionId !== undefined) {
    const byOurs = yield* store.findById(event.subscriptionId)
    if (Option.isSome(byOurs)) return byOurs
  }
  if (event.providerSubscriptionId !== undefined) {
    return yield* store.findByProviderSubscriptionId(event.providerSubscriptionId)
  }
  return Option.none<Subscription>()
})

const plan =
  (event: PaymentEvent, now: DateTime.Utc) =>
  (
    current: Subscription
  ): Option.Option<{ readonly next: Subscription; readonly result: PaymentOutcome }> => {
    if (current.recentEventIds.includes(event.eventId)) return Option.none()
    if (current.lastEventAt !== undefined && DateTime.isLessThan(event.occurredAt, current.lastEventAt)) {
      return Option.none()
    }
    const target = targetStatus(event)
    const status = canTransition(current.status, target) ? target : current.status
    const next = withStatus(current, status, event.occurredAt, now, {
      providerSubscriptionId: current.providerSubscriptionId ?? event.providerSubscriptionId,
      providerCustomerId: current.providerCustomerId ?? event.providerCustomerId,
      lastEventAt: event.occurredAt,
      recentEventIds: [...current.recentEventIds, event.eventId].slice(-recentEventLimit)
    })
    return Option.some({ next, result: status === current.status ? "unchanged" : "applied" })
  }

const skipped =
  (event: PaymentEvent) =>
  (current: Subscription): PaymentOutcome =>
    current.recentEventIds.includes(event.eventId) ? "duplicate" : "stale"

/**
 * Applies a verified provider event at most once. The inbox records the delivery
 * first; the event is marked done only after its effect is written, so a crash in
 * between is repaired by the provider's redelivery, and the subscription's own
 * record of recent event ids keeps that redelivery from applying twice.
 */
export const applyPaymentEvent = Effect.fnUntraced(function* (event: PaymentEvent, receipt: PaymentReceipt) {
  const inbox = yield* PaymentInbox
  const now = yield* DateTime.now
  const earlier = yield* inbox.receive(
    new InboxEntry({
      eventId: event.eventId,
      eventType: receipt.eventType,
      payload: receipt.payload,
      receivedAt: now
    })
  )
  if (Option.isSome(earlier) && earlier.value.outcome !== undefined) return "duplicate" as const
  const target = yield* findTarget(event)
  if (Option.isNone(target)) {
    yield* inbox.complete(event.eventId, "unmatched", now)
    return "unmatched" as const
  }
  const { result: outcome, subscription } = yield* updateSubscription(
    provider,
    target.value,
    plan(event, now),
    skipped(event)
  )
  // A live subscription supersedes older ones (a plan change). Idempotent, so a redelivery also
  // finishes the job when an earlier delivery stopped between the two writes.
  if (outcome !== "stale" && isLive(subscription)) yield* supersedeOthers(provider, subscription)
  // "duplicate" here means the subscription already holds this event's effect: written by a concurrent
  // delivery, or by an earlier one that stopped before completing the inbox entry. Either way it is applied.
  yield* inbox.complete(event.eventId, outcome === "duplicate" ? "applied" : outcome, now)
  return outcome
})
