import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { SubscribeInput } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { PlanView, SubscriptionView } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication, RequiresPermission } from "./middleware.ts"

export class PricingApi extends HttpApiGroup.make("pricing")
  .add(
    HttpApiEndpoint.post("subscribe", "/subscribe", {
      payload: jsonBody(SubscribeInput),
      success: SubscriptionView,
      error: [
        Problem.UnknownPlan,
        Problem.PlanMismatch,
        Problem.PriceMismatch,
        Problem.AlreadySubscribed,
        Problem.ProviderUnavailable
      ]
    }).annotate(RequiresPermission, "billing.subscribe"),
    HttpApiEndpoint.get("listPlans", "/plans", { success: Schema.Array(PlanView) }),
    HttpApiEndpoint.get("currentSubscription", "/subscription", {
      success: SubscriptionView,
      error: Problem.NotFound
    }),
    HttpApiEndpoint.delete("cancelSubscription", "/subscription", {
      success: SubscriptionView,
      error: [Problem.NotFound, Problem.ProviderUnavailable]
    })
  )
  .middleware(Authentication)
  .prefix("/api/v1/pricing") {}
