import { Schema } from "effect"
import { PlanId } from "./ids.ts"
import { Money } from "./money.ts"

export const PlanName = Schema.String.check(Schema.isTrimmed(), Schema.isBetweenLength(1, 100))

/** How often a plan's price is charged: said to people, while the provider's price does the charging. */
export const BillingInterval = Schema.Literals(["month", "year"])
export type BillingInterval = typeof BillingInterval.Type

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class Plan extends Schema.Class<Plan>("roster/Plan")({
  planId: PlanId,
  planName: PlanName,
  price: Money,
  /** The provider's price this plan is billed at (for Stripe, a `price_…` id). */
  providerPriceId: Schema.optional(Schema.String.check(Schema.isTrimmed(), Schema.isBetweenLength(1, 255))),
  /** Billed per seat: the quantity is the number of members who can act. */
  perSeat: Schema.optional(Schema.Boolean),
  /** How often the price is charged; none for a plan that costs nothing or is paid once. */
  interval: Schema.optional(BillingInterval)
}) {}
