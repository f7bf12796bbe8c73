import { describe, expect, it } from "vitest"
import { masterKey, startApi, type TestApi } from "../support/http.ts"
import { stripeEvent, stripeSignature } from "../support/stripe.ts"

const subscribeToTeam = async (api: TestApi, token?: string) =>
  (
    await api.call("POST", "/api/v1/pricing/subscribe", {
      ...(token === undefined ? {} : { token }),
      body: { planId: "team", planName: "Team", price: 19.99 }
    })
  ).body.id as string

const deliver = (api: TestApi, payload: string, signature?: string) =>
  api.call("POST", "/api/v1/payments/webhook", {
    rawBody: payload,
    headers: signature === undefined ? {} : { "stripe-signature": signature }
  })

const checkoutCompleted = (subscriptionId: string) =>
  JSON.stringify(
    stripeEvent("checkout.session.completed", {
      client_reference_id: subscriptionId,
      subscription: "sub_stripe_1",
      customer: "cus_1",
      payment_status: "paid"
    })
  )

const statusOf = async (api: TestApi, token?: string) =>
  (await api.call("GET", "/api/v1/pricing/subscription", token === undefined ? {} : { token })).body.status

describe("the payment webhook (Stripe scheme)", () => {
  it("activates the pending subscription on a signed checkout.session.completed, once", async () => {
    const api = await startApi()
    const payload = checkoutCompleted(await subscribeToTeam(api, masterKey))
    const first = await deliver(api, payload, stripeSignature(payload))
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ received: true, outcome: "applied" })
    expect(await statusOf(api, masterKey)).toBe("active")
    const again = await deliver(api, payload, stripeSignature(payload))
    expect(again.body).toEqual({ received: true, outcome: "duplicate" })
  })

  it("refuses a tampered body, a missing header, a wrong secret and a stale timestamp, changing nothing", async () => {
    const api = await startApi()
    const payload = checkoutCompleted(await subscribeToTeam(api, masterKey))
    const tooOld = Math.floor(Date.now() / 1000) - 301
    const refused = [
      await deliver(api, payload.replace("paid", "PAID"), stripeSignature(payload)),
      await deliver(api, payload),
      await deliver(api, payload, stripeSignature(payload, { secret: "whsec_someone_else" })),
      await deliver(api, payload, stripeSignature(payload, { timestamp: tooOld }))
    ]
    for (const answer of refused) {
      expect(answer.status).toBe(400)
      expect(answer.body.code).toBe("invalid_signature")
    }
    expect(await statusOf(api, masterKey)).toBe("pending")
  })

  it("acknowledges event types it does not act on, whatever their shape", async () => {
    const api = await startApi()
    const odd = [
      stripeEvent("customer.created", { id: "cus_1" }),
      { id: 123, type: "customer.created" },
      { id: null, type: "customer.created" },
      { id: " evt_padded", type: "customer.created" },
      { type: "v2.core.event_destination.ping", created: "2026-01-01T00:00:00Z" }
    ]
    for (const event of odd) {
      const payload = JSON.stringify(event)
      const answer = await deliver(api, payload, stripeSignature(payload))
      expect(answer.body, payload).toEqual({ received: true, outcome: "ignored" })
    }
  })

  it("answers a signed body that is not a Stripe event with a 400 problem", async () => {
    const api = await startApi()
    const payload = JSON.stringify({ type: "invoice.paid", hello: "world" })
    const answer = await deliver(api, payload, stripeSignature(payload))
    expect(answer.status).toBe(400)
    expect(answer.body.code).toBe("validation_failed")
  })

  it("accepts unsigned deliveries in open local mode without a secret, an empty body included", async () => {
    const api = await startApi({ mode: "open", webhook: "unsigned" })
    expect((await deliver(api, "")).body).toEqual({ received: true, outcome: "ignored" })
    const payload = checkoutCompleted(await subscribeToTeam(api))
    expect((await deliver(api, payload)).body.outcome).toBe("applied")
    expect(await statusOf(api)).toBe("active")
  })

  it("has one rule for what is not an event: no `type` is ignored like an unknown type, not JSON is 400", async () => {
    const api = await startApi({ mode: "open", webhook: "unsigned" })
    for (const body of ["", "{}", '{"id":"evt_1"}', '{"type":42}', '{"type":null,"id":"evt_2"}']) {
      const answer = await deliver(api, body)
      expect(answer.status, body).toBe(200)
      expect(answer.body, body).toEqual({ received: true, outcome: "ignored" })
    }
    for (const body of ["[]", "42", '"event"', "{not json"]) {
      const answer = await deliver(api, body)
      expect(answer.status, body).toBe(400)
      expect(answer.body.code, body).toBe("validation_failed")
    }
  })

  it("refuses every delivery in secure mode when no secret is configured", async () => {
    const api = await startApi({ webhook: "reject" })
    const payload = checkoutCompleted(await subscribeToTeam(api, masterKey))
    const answer = await deliver(api, payload, stripeSignature(payload))
    expect(answer.status).toBe(400)
    expect(answer.body.code).toBe("invalid_signature")
  })
})
