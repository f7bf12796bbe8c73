import { Schema } from "effect"
import { PaymentEventId, PlanId, SubscriptionId } from "./ids.ts"
import { Money } from "./money.ts"
import { PlanName } from "./plan.ts"

export const SubscriptionStatus = Schema.Literals(["pending", "active", "past_due", "canceled"])
export type SubscriptionStatus = typeof SubscriptionStatus.Type

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class StatusChange extends Schema.Class<StatusChange>("roster/StatusChange")({
  status: SubscriptionStatus,
  at: Schema.DateTimeUtc
}) {}

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class Subscription extends Schema.Class<Subscription>("roster/Subscription")({
  id: SubscriptionId,
  planId: PlanId,
  planName: PlanName,
  price: Money,
  status: SubscriptionStatus,
  history: Schema.Array(StatusChange),
  providerSubscriptionId: Schema.optional(Schema.String),
  providerCustomerId: Schema.optional(Schema.String),
  /** Creation time of the newest provider event applied; older events never move the status. */
  lastEventAt: Schema.optional(Schema.DateTimeUtc),
  /** Ids of the latest provider events applied, so a redelivery is recognised even mid-flight. */
  recentEventIds: Schema.Array(PaymentEventId),
  /** Incremented on every write; stores use it for compare-and-set. */
  version: Schema.Int,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

const allowed: Record<SubscriptionStatus, ReadonlyArray<SubscriptionStatus>> = {
  pending: ["active", "canceled"],
  active: ["past_due", "canceled"],
  past_due: ["active", "canceled"],
  canceled: []
}

export const canTransition = (from: SubscriptionStatus, to: SubscriptionStatus): boolean =>
  allowed[from].includes(to)

export const isOpen = (subscription: Subscription): boolean => subscription.status !== "canceled"

export const recentEventLimit = 32

export const isLive = (subscription: Subscription): boolean =>
  subscription.status === "active" || subscription.status === "past_due"
