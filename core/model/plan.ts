import { Schema } from "effect"
import { PlanId } from "./ids.ts"
import { Money } from "./money.ts"

export const PlanName = Schema.String.check(Schema.isTrimmed(), Schema.isBetweenLength(1, 100))

export class Plan extends Schema.Class<Plan>("roster/Plan")({
  planId: PlanId,
  planName: PlanName,
  price: Money
}) {}
