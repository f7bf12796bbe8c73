import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Metrics } from "../../metrics/recorder.ts"
import { receivePaymentEvent } from "../../payments/receive-payment-event.ts"
import { RosterApi } from "../api/roster-api.ts"
import { onServices } from "../handed-services.ts"
import { InvalidSignature } from "../problems.ts"
import { toProblem } from "../to-problem.ts"
import { validationFailed } from "../validation.ts"

const signatureDetail = {
  missing: "The signature header is missing",
  invalid: "The signature does not match the body with any configured secret, or it is too old",
  not_configured: "No webhook secret is configured, so no delivery can be verified"
} as const

/** Counted for the operators when metrics are on (the recorder is among the services). */
const countDelivery = ({ outcome, eventType }: { readonly outcome: string; readonly eventType: string }) =>
  Effect.map(Metrics, (metrics) => metrics?.webhook(eventType, outcome))

export const PaymentsHandlers = HttpApiBuilder.group(RosterApi, "payments", (handlers) =>
  handlers.handleRaw("webhook", ({ request }) =>
    Effect.orDie(request.text).pipe(
      // To its end even if the provider hangs up: between recording and applying is no place to stop.
      Effect.flatMap((rawBody) =>
        onServices(
          Effect.uninterruptible(receivePaymentEvent(rawBody, request.headers)).pipe(
            Effect.tap(countDelivery)
          )
        )
      ),
      Effect.map(({ outcome }) => ({ received: true as const, outcome })),
      Effect.catchTags({
        SignatureRejected: (e) => Effect.fail(new InvalidSignature({ detail: signatureDetail[e.reason] })),
        SchemaError: (e) => Effect.fail(validationFailed("body", e)),
        StoreUnavailable: (e) => Effect.fail(toProblem(e)),
        ProviderUnavailable: (e) => Effect.fail(toProblem(e))
      })
    )
  )
)
