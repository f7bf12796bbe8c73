import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { Effect, Schema } from "effect"
import { BillingInterval, Money, Plan, PlanId, PlanName } from "../core/index.ts"
import { StartupError } from "./startup-error.ts"

/** The catalog that ships, used when `ROSTER_PLANS_FILE` names none. */
export const defaultPlansFile = fileURLToPath(new URL("../config/plans.json", import.meta.url))

/** A plan as the operator writes it: the provider's price is Stripe's `price_…` id. */
const PlanEntry = Schema.Struct({
  planId: PlanId,
  planName: PlanName,
  price: Money,
  stripePriceId: Schema.optionalKey(Plan.fields.providerPriceId),
  perSeat: Schema.optionalKey(Schema.Boolean),
  interval: Schema.optionalKey(BillingInterval)
})

const PlansFile = Schema.fromJsonString(
  Schema.Array(PlanEntry).check(
    Schema.isMinLength(1),
    Schema.makeFilter(
      (plans) => new Set(plans.map((plan) => plan.planId)).size === plans.length || "planIds must be unique"
    )
  )
)

const decodePlans = Schema.decodeUnknownEffect(PlansFile, { errors: "all" })

const toPlan = ({ stripePriceId, ...plan }: typeof PlanEntry.Type) =>
  new Plan({ ...plan, ...(stripePriceId === undefined ? {} : { providerPriceId: stripePriceId }) })

/** Reads and checks the plan catalog: prices are integer minor units with an ISO currency. */
export const loadPlans = (path: string) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (cause) => new StartupError({ message: `Cannot read the plans file ${path}: ${String(cause)}` })
  }).pipe(
    Effect.flatMap(decodePlans),
    Effect.map((plans) => plans.map(toPlan)),
    Effect.mapError((error) =>
      error._tag === "StartupError"
        ? error
        : new StartupError({ message: `The plans file ${path} is not valid:\n${error.message}` })
    )
  )
