import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { cancelSubscription, currentSubscription, listPlans, subscribe } from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { toPlanView, toSubscriptionView } from "../views.ts"
import { asCaller } from "./as-caller.ts"

export const PricingHandlers = HttpApiBuilder.group(RosterApi, "pricing", (handlers) =>
  handlers
    .handle("subscribe", ({ payload }) =>
      asCaller((actor) => subscribe(actor, payload)).pipe(Effect.map(toSubscriptionView))
    )
    .handle("listPlans", () => asCaller(listPlans).pipe(Effect.map((plans) => plans.map(toPlanView))))
    .handle("currentSubscription", () => asCaller(currentSubscription).pipe(Effect.map(toSubscriptionView)))
    .handle("cancelSubscription", () => asCaller(cancelSubscription).pipe(Effect.map(toSubscriptionView)))
)
