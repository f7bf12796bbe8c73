import { describe, expect, it } from "vitest"
import { permissionIdOf } from "../../core/index.ts"
import { expectProblem, masterKey, memberWithPermissions, startApi, type TestApi } from "../support/http.ts"
import { seatPlan, testPlans } from "../support/roster.ts"
import {
  requestsTo,
  type StripeRecorder,
  startStripeRecorder,
  stripeThrough
} from "../support/stripe-recorder.ts"
import {
  checkoutCompleted,
  currentSubscription,
  deliverSigned,
  eventPayload,
  expectOutcome,
  providerSubscriptionId,
  testPlan
} from "../support/webhook.ts"

const recorder: StripeRecorder = await startStripeRecorder()

const billingApi = (options: Parameters<typeof startApi>[0] = {}) =>
  startApi({ paymentProvider: stripeThrough(recorder), ...options })

const subscribeTo = (api: TestApi, plan: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.call("POST", "/api/v1/pricing/subscribe", { token: masterKey, body: plan, headers })

const cancel = (api: TestApi) => api.call("DELETE", "/api/v1/pricing/subscription", { token: masterKey })

const checkoutsFor = (subscriptionId: string) =>
  requestsTo(recorder, "POST", "/v1/checkout/sessions").filter(
    (request) => request.params.get("client_reference_id") === subscriptionId
  )

/** Subscribes to `plan` and completes its checkout as Stripe would, under `stripeSubscription`. */
const paidSubscription = async (
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

describe("POST /api/v1/pricing/subscribe with Stripe", () => {
  it("opens a Checkout Session for the plan's Stripe price, referencing the pending subscription", async () => {
    const api = await billingApi()
    const answer = await subscribeTo(api, testPlan.team)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toMatchObject({ status: "pending", planId: "team" })
    expect(answer.body.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//)
    const [session, ...more] = checkoutsFor(answer.body.id)
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
    const api = await billingApi()
    const id = await paidSubscription(api)
    expect(await currentSubscription(api)).toMatchObject({ id, status: "active" })
    expect((await currentSubscription(api)) as object).not.toHaveProperty("checkoutUrl")
  })

  it("creates one session when the request is retried with the same Idempotency-Key", async () => {
    const api = await billingApi()
    const headers = { "idempotency-key": `retry-${crypto.randomUUID()}` }
    const first = await subscribeTo(api, testPlan.business, headers)
    const again = await subscribeTo(api, testPlan.business, headers)
    expect(first.status, first.text).toBe(200)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    expect(checkoutsFor(first.body.id)).toHaveLength(1)
  })

  it("answers 503 and stores nothing while Stripe is down", async () => {
    const api = await billingApi()
    recorder.mode = "down"
    try {
      const answer = await subscribeTo(api, testPlan.team)
      expectProblem(answer, 503, "unavailable")
    } finally {
      recorder.mode = "up"
    }
    expectProblem(
      await api.call("GET", "/api/v1/pricing/subscription", { token: masterKey }),
      404,
      "not_found"
    )
    const audit = await api.call("GET", "/api/v1/audit/events", { token: masterKey })
    expect(audit.body).toEqual([])
  })

  it("answers 503 within the timeout while Stripe does not answer", async () => {
    const api = await billingApi({ paymentProvider: stripeThrough(recorder, "300 millis") })
    recorder.mode = "hang"
    const started = Date.now()
    try {
      expectProblem(await subscribeTo(api, testPlan.team), 503, "unavailable")
    } finally {
      recorder.mode = "up"
    }
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
    const api = await billingApi()
    const old = await paidSubscription(api, testPlan.team, "sub_old_team")
    const upgrade = await paidSubscription(api, testPlan.business, "sub_new_business")
    expect(await currentSubscription(api)).toMatchObject({ id: upgrade, status: "active" })
    const cancellations = requestsTo(recorder, "DELETE", "/v1/subscriptions/sub_old_team")
    expect(cancellations.map((request) => request.idempotencyKey)).toEqual([`roster-cancel-${old}`])
  })

  it("expires the Checkout Session of a pending subscription it supersedes", async () => {
    const api = await billingApi()
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

describe("DELETE /api/v1/pricing/subscription with Stripe", () => {
  it("asks Stripe to cancel at the period's end; canceling until customer.subscription.deleted", async () => {
    const api = await billingApi()
    await paidSubscription(api, testPlan.team, "sub_to_cancel")
    const answer = await cancel(api)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.status).toBe("canceling")
    expect(Date.parse(answer.body.cancelAt)).not.toBeNaN()
    const [update] = requestsTo(recorder, "POST", "/v1/subscriptions/sub_to_cancel")
    expect(update?.params.get("cancel_at_period_end")).toBe("true")
    const audit = await api.call("GET", "/api/v1/audit/events?action=subscription.updated", {
      token: masterKey
    })
    expect(audit.body[0]).toMatchObject({
      actor: { kind: "master" },
      target: { type: "subscription", id: answer.body.id },
      changes: { status: ["active", "canceling"] }
    })
    const deleted = eventPayload("customer.subscription.deleted", {
      object: "subscription",
      id: "sub_to_cancel",
      status: "canceled"
    })
    expectOutcome(await deliverSigned(api, deleted), "applied")
    expect((await currentSubscription(api)).status).toBe("canceled")
  })

  it("changes nothing and answers 503 while Stripe is down", async () => {
    const api = await billingApi()
    await paidSubscription(api, testPlan.team, "sub_kept")
    recorder.mode = "down"
    try {
      expectProblem(await cancel(api), 503, "unavailable")
    } finally {
      recorder.mode = "up"
    }
    expect((await currentSubscription(api)).status).toBe("active")
  })

  it("cancels at once without a provider, and 404 when there is nothing to cancel", async () => {
    const api = await startApi()
    expectProblem(await cancel(api), 404, "not_found")
    await paidSubscription(api, testPlan.team, "sub_no_provider")
    const answer = await cancel(api)
    expect(answer.body).toMatchObject({ status: "canceled" })
    expect(answer.body).not.toHaveProperty("cancelAt")
  })

  it("needs billing.subscribe: a member who may only read billing is refused and nothing changes", async () => {
    const api = await billingApi()
    await paidSubscription(api, testPlan.team, "sub_guarded")
    const reader = await memberWithPermissions(api, "billing-reader", [permissionIdOf("billing.read")])
    const refused = await api.call("DELETE", "/api/v1/pricing/subscription", { token: reader.token })
    expect(expectProblem(refused, 403, "forbidden").permission).toBe("billing.subscribe")
    expect(requestsTo(recorder, "POST", "/v1/subscriptions/sub_guarded")).toEqual([])
    expect((await currentSubscription(api)).status).toBe("active")
  })
})

describe("a per-seat plan at Stripe", () => {
  it("checks out one seat per member who can act and updates the quantity as members change", async () => {
    const api = await billingApi({ plans: [...testPlans, seatPlan] })
    const role = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      body: { name: "Crew", roleKey: "crew" }
    })
    const addMember = (username: string) =>
      api.call("POST", "/api/v1/team/add", {
        token: masterKey,
        body: {
          username,
          email: `${username}@example.com`,
          password: "a long enough password",
          activestatus: true,
          roleId: role.body.id
        }
      })
    await addMember("first")
    await addMember("second")
    const id = await paidSubscription(api, { planId: "seats", planName: "Seats", price: 5 }, "sub_seats")
    expect(checkoutsFor(id)[0]?.params.get("line_items[0][quantity]")).toBe("2")
    const third = await addMember("third")
    expect(third.status, third.text).toBe(200)
    expect((await currentSubscription(api)) as object).toMatchObject({ seats: 3 })
    const updates = requestsTo(recorder, "POST", "/v1/subscriptions/sub_seats")
    expect(updates.map((request) => request.params.get("items[0][quantity]"))).toEqual(["3"])
  })
})
