import { DateTime, Effect, Option, Schema } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { AlreadySubscribed, PlanMismatch, PriceMismatch, UnknownPlan } from "../../model/errors.ts"
import { fromMajorUnits, isFree } from "../../model/money.ts"
import type { Principal } from "../../model/principal.ts"
import { isLive, StatusChange, Subscription } from "../../model/subscription.ts"
import { requirePermission } from "../../policy/access.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { PlanCatalog } from "../../ports/plan-catalog.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { auditActorOf, newAuditEntry, relayAudit } from "../audit/new-audit-entry.ts"
import { subscriptionFields, supersedeOthers } from "./subscription-writes.ts"

export const SubscribeInput = Schema.Struct({
  planId: Schema.String,
  planName: Schema.String,
  price: Schema.Finite
})
export type SubscribeInput = typeof SubscribeInput.Type

/**
 * Opens a pending subscription whose id the checkout carries as its reference, or
 * an active one at once for a free plan. The price must be the catalog's, exactly.
 */
export const subscribe = Effect.fnUntraced(function* (actor: Principal, input: SubscribeInput) {
  yield* requirePermission(actor, "billing.subscribe")
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
  const store = yield* SubscriptionStore
  if ((yield* store.listOpen).some((open) => isLive(open) && open.planId === plan.planId)) {
    return yield* new AlreadySubscribed({ planId: plan.planId })
  }
  const now = yield* DateTime.now
  const status = isFree(plan.price) ? "active" : "pending"
  const subscription = new Subscription({
    id: yield* (yield* IdGenerator).subscriptionId,
    planId: plan.planId,
    planName: plan.planName,
    price: plan.price,
    status,
    history: [new StatusChange({ status, at: now })],
    recentEventIds: [],
    version: 1,
    createdAt: now,
    updatedAt: now
  })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "subscription.created",
    { type: "subscription", id: subscription.id },
    changesBetween(null, subscription, subscriptionFields)
  )
  yield* store.insert(subscription, entry)
  yield* relayAudit(entry)
  yield* supersedeOthers(auditActorOf(actor), subscription)
  return subscription
})
