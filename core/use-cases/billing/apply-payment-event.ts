import { DateTime, Effect, Option, Schema } from "effect"
import type { AuditActor } from "../../model/audit.ts"
import {
  InboxEntry,
  type PaymentEvent,
  type PaymentOutcome,
  targetStatus
} from "../../model/payment-event.ts"
import { CurrentOrganization } from "../../model/request.ts"
import {
  canTransition,
  isInForce,
  recentEventLimit,
  type Subscription,
  type SubscriptionStatus
} from "../../model/subscription.ts"
import { PaymentInbox } from "../../ports/payment-inbox.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { updateSubscription, withStatus } from "../../steps/billing/subscription-writes.ts"
import { releaseAtProvider, supersedeOthers } from "../../steps/billing/supersede.ts"
import { keepSeatsInStep } from "../../steps/billing/sync-seats.ts"

export const PaymentReceipt = Schema.Struct({
  eventType: Schema.String,
  payload: Schema.String
})
export type PaymentReceipt = typeof PaymentReceipt.Type

const provider: AuditActor = { kind: "provider" }

/**
 * Whether an event found by our reference is about that subscription: once the provider's
 * subscription id is recorded (at activation), an event naming another provider subscription is
 * not, whatever reference it carries.
 */
const isAbout = (subscription: Subscription, event: PaymentEvent) =>
  subscription.providerSubscriptionId === undefined ||
  event.providerSubscriptionId === undefined ||
  subscription.providerSubscriptionId === event.providerSubscriptionId

const findTarget = Effect.fnUntraced(function* (event: PaymentEvent) {
  const store = yield* SubscriptionStore
  // Stryker disable next-line ConditionalExpression: looking up no id finds nothing; the check spares a read
  if (event.subscriptionId !== undefined) {
    const byOurs = yield* store.findById(event.subscriptionId)
    if (Option.isSome(byOurs) && isAbout(byOurs.value, event)) return byOurs
  }
  if (event.providerSubscriptionId !== undefined) {
    return yield* store.findByProviderSubscriptionId(event.providerSubscriptionId)
  }
  return Option.none<Subscription>()
})

/**
 * Whether `event` leaves a canceling subscription as it is: a payment does not undo a cancellation;
 * the provider's own report of the subscription does (the customer resumed it), and so does the
 * cancellation itself. Reports are ordered by their own times only, never against our clock: the
 * report our cancellation makes the provider send comes after any it sent before.
 */
const keepsCanceling = (event: PaymentEvent, target: SubscriptionStatus) =>
  target !== "canceled" && event._tag !== "SubscriptionStatusReported"

const statusAfter = (current: Subscription, event: PaymentEvent): SubscriptionStatus => {
  if (event._tag === "CheckoutExpired" && current.status !== "pending") return current.status
  const target = targetStatus(event)
  if (current.status === "canceling" && keepsCanceling(event, target)) return current.status
  return canTransition(current.status, target) ? target : current.status
}

/** When a `canceling` subscription ends, as the event says or as known; any other has no end. */
const cancelAtAfter = (current: Subscription, event: PaymentEvent, status: SubscriptionStatus) =>
  status === "canceling" ? (event.cancelAt ?? current.cancelAt) : undefined

const plan = (event: PaymentEvent, now: DateTime.Utc) => (current: Subscription) => {
  if (current.recentEventIds.includes(event.eventId)) return Effect.succeedNone
  if (current.lastEventAt !== undefined && DateTime.isLessThan(event.occurredAt, current.lastEventAt)) {
    return Effect.succeedNone
  }
  const status = statusAfter(current, event)
  const next = withStatus(current, status, event.occurredAt, now, {
    providerSubscriptionId: current.providerSubscriptionId ?? event.providerSubscriptionId,
    providerCustomerId: current.providerCustomerId ?? event.providerCustomerId,
    cancelAt: cancelAtAfter(current, event, status),
    lastEventAt: event.occurredAt,
    recentEventIds: [...current.recentEventIds, event.eventId].slice(-recentEventLimit)
  })
  const result: PaymentOutcome = status === current.status ? "unchanged" : "applied"
  return Effect.succeed(Option.some({ next, result }))
}

const skipped =
  (event: PaymentEvent) =>
  (current: Subscription): PaymentOutcome =>
    current.recentEventIds.includes(event.eventId) ? "duplicate" : "stale"

/** The provider says it is paying for a subscription that was canceled here (superseded while its checkout was paid). */
const paidAfterCancel = (subscription: Subscription, event: PaymentEvent) =>
  subscription.status === "canceled" &&
  (event._tag === "PaymentSucceeded" ||
    (event._tag === "SubscriptionStatusReported" && event.status !== "canceled"))

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
  // The subscription's organisation is the one the event acts on: found through it, never named.
  const outcome = yield* applyTo(target.value, event, now).pipe(
    Effect.provideService(CurrentOrganization, target.value.organizationId)
  )
  // "duplicate" here means the subscription already holds this event's effect: written by a concurrent
  // delivery, or by an earlier one that stopped before completing the inbox entry. Either way it is applied.
  yield* inbox.complete(event.eventId, outcome === "duplicate" ? "applied" : outcome, now)
  return outcome
})

const applyTo = Effect.fnUntraced(function* (target: Subscription, event: PaymentEvent, now: DateTime.Utc) {
  const { result: outcome, subscription } = yield* updateSubscription(
    provider,
    target,
    plan(event, now),
    skipped(event)
  )
  // The steps after the write are idempotent, so any later delivery, even a stale one, finishes them
  // when an earlier one stopped (or the provider failed) between the writes.
  // Stryker disable next-line ConditionalExpression: one not in force supersedes only older pending ones, which its subscribe canceled already
  if (isInForce(subscription)) {
    yield* supersedeOthers(provider, subscription)
    yield* keepSeatsInStep
  }
  if (paidAfterCancel(subscription, event)) yield* releaseAtProvider(subscription)
  return outcome
})
