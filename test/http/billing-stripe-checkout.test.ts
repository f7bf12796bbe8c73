import { describe, expect, it } from "vitest"
import {
  billingApi,
  checkoutsFor,
  paidSubscription,
  subscribeTo,
  whileStripe
} from "../support/billing-http.ts"
import { expectProblem, masterKey } from "../support/http.ts"
import {
  requestsTo,
  type StripeRecorder,
  startStripeRecorder,
  stripeThrough
} from "../support/stripe-recorder.ts"
import { currentSubscription, testPlan } from "../support/webhook.ts"

const recorder: StripeRecorder = await startStripeRecorder()

describe("POST /api/v1/pricing/subscribe with Stripe", () => {
  it("opens a Checkout Session for the plan's Stripe price, referencing the pending subscription", async () => {
    const api = await billingApi(recorder)
    const answer = await subscribeTo(api, testPlan.team)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toMatchObject({ status: "pending", planId: "team" })
    expect(answer.body.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//)
    const [session, ...more] = checkoutsFor(recorder, answer.body.id)
    expect(more).toEqual([])
    expect(Object.fromEntries(session?.params ?? [])).toMatchObject({
      mode: "subscription",
      "line_items[0][price]": "price_team",
      "line_items[0][quantity]": "1",
      client_reference_id: answer.body.id,
      success_url: "https://app.example/billing/done",
      cancel_url: "https://app.example/billing"
    })
    expect(session?.idempotencyKey).toBe(`roster-checkout-${answer.body.id}`)
  })

  it("is activated by the signed checkout.session.completed that follows", async () => {
    const api = await billingApi(recorder)
    const id = await paidSubscription(api)
    expect(await currentSubscription(api)).toMatchObject({ id, status: "active" })
    expect((await currentSubscription(api)) as object).not.toHaveProperty("checkoutUrl")
  })

  it("creates one session when the request is retried with the same Idempotency-Key", async () => {
    const api = await billingApi(recorder)
    const headers = { "idempotency-key": `retry-${crypto.randomUUID()}` }
    const first = await subscribeTo(api, testPlan.business, headers)
    const again = await subscribeTo(api, testPlan.business, headers)
    expect(first.status, first.text).toBe(200)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    expect(checkoutsFor(recorder, first.body.id)).toHaveLength(1)
  })

  it("answers 503 and stores nothing while Stripe is down", async () => {
    const api = await billingApi(recorder)
    await whileStripe(recorder, { mode: "down" }, async () => {
      const answer = await subscribeTo(api, testPlan.team)
      expectProblem(answer, 503, "unavailable")
    })
    expectProblem(
      await api.call("GET", "/api/v1/pricing/subscription", { token: masterKey }),
      404,
      "not_found"
    )
    const audit = await api.call("GET", "/api/v1/audit/events", { token: masterKey })
    expect(audit.body).toEqual([])
  })

  it("answers 503 within the timeout while Stripe does not answer", async () => {
    const api = await billingApi(recorder, { paymentProvider: stripeThrough(recorder, "300 millis") })
    const started = Date.now()
    await whileStripe(recorder, { mode: "hang" }, async () => {
      expectProblem(await subscribeTo(api, testPlan.team), 503, "unavailable")
    })
    // One attempt and one retry, each bounded, and the client's backoff between them.
    expect(Date.now() - started).toBeLessThan(5_000)
    expectProblem(
      await api.call("GET", "/api/v1/pricing/subscription", { token: masterKey }),
      404,
      "not_found"
    )
  })
})

describe("a newer subscription at Stripe", () => {
  it("cancels the one it supersedes at Stripe, once, when it is paid", async () => {
    const api = await billingApi(recorder)
    const old = await paidSubscription(api, testPlan.team, "sub_old_team")
    const upgrade = await paidSubscription(api, testPlan.business, "sub_new_business")
    expect(await currentSubscription(api)).toMatchObject({ id: upgrade, status: "active" })
    const cancellations = requestsTo(recorder, "DELETE", "/v1/subscriptions/sub_old_team")
    expect(cancellations).toHaveLength(1)
    expect(old).toMatch(/^sub_/)
  })

  it("expires the Checkout Session of a pending subscription it supersedes", async () => {
    const api = await billingApi(recorder)
    const first = await subscribeTo(api, testPlan.team)
    await subscribeTo(api, testPlan.business)
    const session = first.body.checkoutUrl as string
    expect(session).toBeDefined()
    const expired = requestsTo(recorder, "POST", /^\/v1\/checkout\/sessions\/.+\/expire$/).filter(
      (request) => request.idempotencyKey === `roster-close-checkout-${first.body.id}`
    )
    expect(expired).toHaveLength(1)
  })
})
