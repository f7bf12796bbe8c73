import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { PaymentProvider, SubscriptionId } from "../../core/index.ts"
import { startStripeRecorder, stripeThrough } from "../support/stripe-recorder.ts"

const recorder = await startStripeRecorder()

const openCheckout = (subscriptionId: string) =>
  PaymentProvider.use((provider) =>
    provider.openCheckout({
      subscriptionId: SubscriptionId.make(subscriptionId),
      providerPriceId: "price_team",
      quantity: 1
    })
  ).pipe(Effect.provide(stripeThrough(recorder)))

const sentFor = (subscriptionId: string) =>
  recorder.requests.filter((request) => request.params.get("client_reference_id") === subscriptionId)

describe("calls to Stripe", () => {
  it("carry the trace of the span they are made in, when an operator traces", async () => {
    // Effect's own tracer: spans with W3C ids, as an exporter's are.
    const span = await Effect.runPromise(
      Effect.withSpan(
        Effect.flatMap(Effect.currentSpan, (current) => Effect.as(openCheckout("sub_traced"), current)),
        "PaymentProvider.openCheckout"
      ).pipe(Effect.orDie)
    )
    const [sent] = sentFor("sub_traced")
    expect(sent?.traceparent).toBe(`00-${span.traceId}-${span.spanId}-01`)
  })

  it("carry none when nothing is traced", async () => {
    await Effect.runPromise(openCheckout("sub_untraced"))
    const [sent] = sentFor("sub_untraced")
    expect(sent).toBeDefined()
    expect(sent?.traceparent).toBeUndefined()
  })
})
