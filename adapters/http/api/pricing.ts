import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { SubscribeInput } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { PlanView, SubscriptionView } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication, ReadsTarget, RequiresPermission } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

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
    })
      .annotate(RequiresPermission, "billing.subscribe")
      .annotateMerge(
        documented("Subscribe the organisation to a plan", {
          example: { planId: "team", planName: "Team", price: 19 },
          links: {
            ReadSubscription: { operationId: "pricing.currentSubscription" },
            CancelSubscription: { operationId: "pricing.cancelSubscription" }
          }
        })
      ),
    HttpApiEndpoint.get("listPlans", "/plans", { success: Schema.Array(PlanView) })
      .annotate(RequiresPermission, "billing.read")
      .annotateMerge(documented("List the plan catalog")),
    HttpApiEndpoint.get("currentSubscription", "/subscription", {
      success: SubscriptionView,
      error: Problem.NotFound
    })
      .annotate(ReadsTarget, "subscription")
      .annotate(RequiresPermission, "billing.read")
      .annotateMerge(documented("Read the organisation's current subscription")),
    HttpApiEndpoint.delete("cancelSubscription", "/subscription", {
      success: SubscriptionView,
      error: [Problem.NotFound, Problem.ProviderUnavailable]
    })
      .annotate(RequiresPermission, "billing.subscribe")
      .annotateMerge(
        documented("Cancel the organisation's subscription (at the provider, at the period's end)")
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1/pricing")
  .annotate(OpenApi.Description, "The plan catalog and the organisation's subscription") {}
