import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { PaymentOutcome } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { jsonBody } from "./json-body.ts"

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
    })
  )
  .prefix("/api/v1/payments") {}
