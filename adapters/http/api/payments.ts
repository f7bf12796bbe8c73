import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { PaymentOutcome } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { jsonBody } from "./json-body.ts"
import { documented } from "./operation-docs.ts"

/** The provider's event, verified over its raw bytes: its signature, not a bearer token, authenticates it. */
export class PaymentsApi extends HttpApiGroup.make("payments")
  .add(
    HttpApiEndpoint.post("webhook", "/webhook", {
      payload: jsonBody(Schema.Record(Schema.String, Schema.Unknown)),
      success: Schema.Struct({
        received: Schema.Literal(true),
        outcome: PaymentOutcome
      }),
      error: [Problem.InvalidSignature, Problem.ValidationFailed, Problem.ProviderUnavailable]
    }).annotateMerge(documented("Receive a payment provider's event"))
  )
  .prefix("/api/v1/payments")
  .annotate(OpenApi.Description, "The payment provider's webhook, authenticated by its signature") {}
