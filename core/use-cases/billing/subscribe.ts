import { DateTime, Effect, Option, Schema } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { AlreadySubscribed, PlanMismatch, PriceMismatch, UnknownPlan } from "../../model/errors.ts"
import { fromMajorUnits, isFree } from "../../model/money.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { isInForce, StatusChange, Subscription } from "../../model/subscription.ts"
import { requirePermission } from "../../policy/access.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { PaymentProvider } from "../../ports/payment-provider.ts"
import { PlanCatalog } from "../../ports/plan-catalog.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { subscriptionFields } from "../../steps/billing/subscription-writes.ts"
import { isSupersededBy, releaseAtProvider, supersedeOthers } from "../../steps/billing/supersede.ts"
import { countSeats } from "../../steps/billing/sync-seats.ts"

export const SubscribeInput = Schema.Struct({
  planId: Schema.String,
  planName: Schema.String,
  price: Schema.Finite
})
export type SubscribeInput = typeof SubscribeInput.Type

/** The catalog's plan the input names, with its name and its price exactly as the catalog has them. */
const catalogPlan = Effect.fnUntraced(function* (input: SubscribeInput) {
  const found = yield* (yield* PlanCatalog).find(input.planId)
  if (Option.isNone(found)) return yield* new UnknownPlan({ planId: input.planId })
  const plan = found.value
  if (plan.planName !== input.planName) {
    return yield* new PlanMismatch({ planId: input.planId, planName: input.planName })
  }
  const offered = fromMajorUnits(input.price, plan.price.currency)
  if (Option.isNone(offered) || offered.value.amountMinor !== plan.price.amountMinor) {
    return yield* new PriceMismatch({ planId: input.planId, price: input.price })
  }
  return plan
})

/**
 * Opens a pending subscription with the provider's checkout for it (whose reference is our id), or
 * an active one at once for a free plan, and supersedes the older ones. Every provider call comes
 * before the first write, so a provider that fails leaves nothing stored.
 */
export const subscribe = Effect.fnUntraced(function* (actor: Principal, input: SubscribeInput) {
  yield* requirePermission(actor, "billing.subscribe")
  const plan = yield* catalogPlan(input)
  const store = yield* SubscriptionStore
  const open = yield* store.listOpen
  // A canceling subscription may be subscribed to again: the new one replaces it once paid.
  if (
    open.some((other) => isInForce(other) && other.status !== "canceling" && other.planId === plan.planId)
  ) {
    return yield* new AlreadySubscribed({ planId: plan.planId })
  }
  const now = yield* DateTime.now
  const id = yield* (yield* IdGenerator).next("subscription")
  const seats = plan.perSeat === true ? yield* countSeats : undefined
  const status = isFree(plan.price) ? "active" : "pending"
  const checkout =
    status === "pending"
      ? yield* (yield* PaymentProvider).openCheckout({
          subscriptionId: id,
          providerPriceId: plan.providerPriceId,
          quantity: seats ?? 1
        })
      : Option.none()
  const subscription = new Subscription({
    id,
    organizationId: yield* CurrentOrganization,
    planId: plan.planId,
    planName: plan.planName,
    price: plan.price,
    status,
    history: [new StatusChange({ status, at: now })],
    checkout: Option.getOrUndefined(checkout),
    seats,
    recentEventIds: [],
    version: 1,
    createdAt: now,
    updatedAt: now
  })
  const released = open.filter(isSupersededBy(subscription))
  yield* Effect.forEach(released, releaseAtProvider)
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "subscription.created",
    { type: "subscription", id: subscription.id },
    changesBetween(null, subscription, subscriptionFields)
  )
  yield* store.insert(subscription, entry)
  yield* supersedeOthers(auditActorOf(actor), subscription, released)
  return subscription
})
