import { expect } from "vitest"
import { masterKey, startApi, type TestApi } from "./http.ts"
import { requestsTo, type StripeRecorder, stripeThrough } from "./stripe-recorder.ts"
import {
  checkoutCompleted,
  deliverSigned,
  expectOutcome,
  providerSubscriptionId,
  testPlan
} from "./webhook.ts"

/** The HTTP service with Stripe behind `recorder` as its payment provider. */
export const billingApi = (recorder: StripeRecorder, options: Parameters<typeof startApi>[0] = {}) =>
  startApi({ paymentProvider: stripeThrough(recorder), ...options })

export const subscribeTo = (
  api: TestApi,
  plan: Record<string, unknown>,
  headers: Record<string, string> = {}
) => api.call("POST", "/api/v1/pricing/subscribe", { token: masterKey, body: plan, headers })

export const cancel = (api: TestApi) =>
  api.call("DELETE", "/api/v1/pricing/subscription", { token: masterKey })

/** The Checkout Sessions opened for our subscription `subscriptionId`. */
export const checkoutsFor = (recorder: StripeRecorder, subscriptionId: string) =>
  requestsTo(recorder, "POST", "/v1/checkout/sessions").filter(
    (request) => request.params.get("client_reference_id") === subscriptionId
  )

/** Subscribes to `plan` and completes its checkout as Stripe would, under `stripeSubscription`. */
export const paidSubscription = async (
  api: TestApi,
  plan: Record<string, unknown> = testPlan.team,
  stripeSubscription = providerSubscriptionId
) => {
  const subscribed = await subscribeTo(api, plan)
  expect(subscribed.status, subscribed.text).toBe(200)
  const completed = JSON.parse(checkoutCompleted(subscribed.body.id))
  completed.data.object.subscription = stripeSubscription
  expectOutcome(await deliverSigned(api, JSON.stringify(completed)), "applied")
  return subscribed.body.id as string
}

/** Runs `body` with the recorder playing `mode` and `script`, and puts it back as it was after. */
export const whileStripe = async <A>(
  recorder: StripeRecorder,
  behaviour: Partial<Pick<StripeRecorder, "mode" | "script">>,
  body: () => Promise<A>
) => {
  Object.assign(recorder, behaviour)
  try {
    return await body()
  } finally {
    recorder.mode = "up"
    recorder.script = () => undefined
  }
}
