import { Webhook } from "standardwebhooks"
import { expect } from "vitest"
import { type Answer, expectProblem, masterKey, standardWebhooksSecret, type TestApi } from "./http.ts"
import { stripeEvent, stripeSignature } from "./stripe.ts"

export const webhookPath = "/api/v1/payments/webhook"

/** The test catalog's plans, as `POST /pricing/subscribe` takes them. */
export const testPlan = {
  team: { planId: "team", planName: "Team", price: 19.99 },
  business: { planId: "business", planName: "Business", price: 99 },
  free: { planId: "free", planName: "Free", price: 0 }
} as const

/** The provider's subscription and customer ids the checkouts below carry. */
export const providerSubscriptionId = "sub_provider_1"
export const providerCustomerId = "cus_provider_1"

/** Subscribes as the operator and gives the subscription's id. */
export const subscribe = async (
  api: TestApi,
  plan: (typeof testPlan)[keyof typeof testPlan] = testPlan.team
) => {
  const answer = await api.call("POST", "/api/v1/pricing/subscribe", { token: masterKey, body: plan })
  expect(answer.status, answer.text).toBe(200)
  return answer.body.id as string
}

/** The organisation's current subscription, as GET /api/v1/pricing/subscription shows it. */
export const currentSubscription = async (api: TestApi) => {
  const answer = await api.call("GET", "/api/v1/pricing/subscription", { token: masterKey })
  expect(answer.status, answer.text).toBe(200)
  return answer.body as { status: string; history: Array<{ status: string; at: string }> }
}

export const statusOf = async (api: TestApi) => (await currentSubscription(api)).status

/** A Stripe event as the JSON text that is signed and delivered. */
export const eventPayload = (type: string, object: Record<string, unknown>, created?: number) =>
  JSON.stringify(stripeEvent(type, object, created))

export const checkoutCompleted = (
  subscriptionId: string,
  options: { readonly created?: number; readonly paymentStatus?: string } = {}
) =>
  eventPayload(
    "checkout.session.completed",
    {
      object: "checkout.session",
      client_reference_id: subscriptionId,
      subscription: providerSubscriptionId,
      customer: providerCustomerId,
      payment_status: options.paymentStatus ?? "paid"
    },
    options.created
  )

export const deliver = (api: TestApi, payload: string, headers: Record<string, string> = {}) =>
  api.call("POST", webhookPath, { rawBody: payload, headers })

/** Delivers a payload signed as Stripe signs it (with the tests' Stripe secret unless told). */
export const deliverSigned = (api: TestApi, payload: string, secret?: string) =>
  deliver(api, payload, {
    "stripe-signature": stripeSignature(payload, secret === undefined ? {} : { secret })
  })

/** The three Standard Webhooks headers, signed with the official `standardwebhooks` package. */
export const standardWebhooksHeaders = (
  payload: string,
  options: { readonly secret?: string; readonly at?: Date; readonly id?: string } = {}
) => {
  const at = options.at ?? new Date()
  const id = options.id ?? `msg_${crypto.randomUUID()}`
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(options.secret ?? standardWebhooksSecret).sign(id, at, payload)
  }
}

/** A 200 acknowledgement with exactly this outcome. */
export const expectOutcome = (answer: Answer, outcome: string) => {
  expect(answer.status, answer.text).toBe(200)
  expect(answer.body).toEqual({ received: true, outcome })
}

/** A 400 `invalid_signature` problem. */
export const expectSignatureRefused = (answer: Answer) => expectProblem(answer, 400, "invalid_signature")
