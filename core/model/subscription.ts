import { Schema } from "effect"
import { OrganizationId, PaymentEventId, PlanId, SubscriptionId } from "./ids.ts"
import { Money } from "./money.ts"
import { PlanName } from "./plan.ts"

/** `canceling`: the provider was asked to end it when its paid period ends (`cancelAt`); still in force until then. */
export const SubscriptionStatus = Schema.Literals(["pending", "active", "past_due", "canceling", "canceled"])
export type SubscriptionStatus = typeof SubscriptionStatus.Type

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class StatusChange extends Schema.Class<StatusChange>("roster/StatusChange")({
  status: SubscriptionStatus,
  at: Schema.DateTimeUtc
}) {}

/** The provider's hosted page where a pending subscription is paid. */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class Checkout extends Schema.Class<Checkout>("roster/Checkout")({
  id: Schema.String,
  url: Schema.String
}) {}

/** A seat count: the members who can act. */
export const Seats = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class Subscription extends Schema.Class<Subscription>("roster/Subscription")({
  id: SubscriptionId,
  /** Whose subscription it is: the webhook finds the organisation through it. */
  organizationId: OrganizationId,
  planId: PlanId,
  planName: PlanName,
  price: Money,
  status: SubscriptionStatus,
  history: Schema.Array(StatusChange),
  checkout: Schema.optional(Checkout),
  /** Present for a plan priced per seat: the quantity billed. */
  seats: Schema.optional(Seats),
  /** When a `canceling` subscription ends, as the provider said. */
  cancelAt: Schema.optional(Schema.DateTimeUtc),
  providerSubscriptionId: Schema.optional(Schema.String),
  providerCustomerId: Schema.optional(Schema.String),
  /** The time of the newest provider state known; older events never move the status. */
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
  active: ["past_due", "canceling", "canceled"],
  past_due: ["active", "canceling", "canceled"],
  canceling: ["active", "canceled"],
  canceled: []
}

export const canTransition = (from: SubscriptionStatus, to: SubscriptionStatus): boolean =>
  allowed[from].includes(to)

export const isOpen = (subscription: Subscription): boolean => subscription.status !== "canceled"

export const recentEventLimit = 32

/** Paid for (or free) and not yet over: the organisation's current subscription, if any is. */
export const isInForce = (subscription: Subscription): boolean =>
  subscription.status === "active" ||
  subscription.status === "past_due" ||
  subscription.status === "canceling"
