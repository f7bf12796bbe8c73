import { describe, expect, it } from "vitest"
import { Plan } from "../../core/index.ts"
import { expectProblem, masterKey, memberWithPermissions, startApi, type TestApi } from "../support/http.ts"
import { seatPlan, testPlans } from "../support/roster.ts"

const team = { planId: "team", planName: "Team", price: 19.99 }
const business = { planId: "business", planName: "Business", price: 99 }
const free = { planId: "free", planName: "Free", price: 0 }

const subscribe = (api: TestApi, body: unknown, token = masterKey) =>
  api.call("POST", "/api/v1/pricing/subscribe", { token, body })

/** Sends the body as JSON text exactly as written, for numbers `JSON.stringify` cannot produce. */
const subscribeRaw = (api: TestApi, rawBody: string) =>
  api.call("POST", "/api/v1/pricing/subscribe", { token: masterKey, rawBody })

const current = (api: TestApi, token = masterKey) =>
  api.call("GET", "/api/v1/pricing/subscription", { token })

const publicSubscriptionKeys = [
  "createdAt",
  "currency",
  "history",
  "id",
  "planId",
  "planName",
  "price",
  "status",
  "updatedAt"
]

/** A subscription as clients see it: exactly the public keys, no bookkeeping. */
const expectPublicSubscription = (body: Record<string, unknown>) => {
  expect(Object.keys(body).sort()).toEqual(publicSubscriptionKeys)
  for (const internal of ["version", "recentEventIds", "providerSubscriptionId", "_id"]) {
    expect(body).not.toHaveProperty(internal)
  }
  expect(body.id).toMatch(/^sub_/)
}

describe("GET /api/v1/pricing/plans", () => {
  it("lists the catalog with prices in major units", async () => {
    const api = await startApi()
    const answer = await api.call("GET", "/api/v1/pricing/plans", { token: masterKey })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toEqual([
      { ...free, currency: "EUR" },
      { ...team, currency: "EUR" },
      { ...business, currency: "EUR" }
    ])
  })

  it("marks a plan billed per seat, and how often a plan charged again and again is charged", async () => {
    const monthly = new Plan({ ...seatPlan, interval: "month" })
    const api = await startApi({ plans: [...testPlans, monthly] })
    const answer = await api.call("GET", "/api/v1/pricing/plans", { token: masterKey })
    expect(answer.body.at(-1)).toEqual({
      planId: "seats",
      planName: "Seats",
      price: 5,
      currency: "EUR",
      perSeat: true,
      interval: "month"
    })
    expect(answer.body[0]).not.toHaveProperty("perSeat")
    expect(answer.body[0]).not.toHaveProperty("interval")
  })

  it("answers with prices that subscribe accepts back unchanged", async () => {
    const api = await startApi()
    const plans = (await api.call("GET", "/api/v1/pricing/plans", { token: masterKey })).body
    const paid = plans.find((plan: { planId: string }) => plan.planId === "business")
    const answer = await subscribe(api, { planId: paid.planId, planName: paid.planName, price: paid.price })
    expect(answer.status, answer.text).toBe(200)
  })
})

describe("POST /api/v1/pricing/subscribe", () => {
  it("opens a pending subscription with an id for a paid plan", async () => {
    const api = await startApi()
    const answer = await subscribe(api, team)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toMatchObject({ status: "pending", ...team, currency: "EUR" })
    expectPublicSubscription(answer.body)
  })

  it("activates a free plan at once", async () => {
    const api = await startApi()
    const answer = await subscribe(api, free)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.status).toBe("active")
    expect((await current(api)).body.status).toBe("active")
  })

  it("answers an unknown planId with 422 unknown_plan", async () => {
    const api = await startApi()
    expectProblem(await subscribe(api, { ...team, planId: "enterprise" }), 422, "unknown_plan")
  })

  it("answers a planName that is not the plan's with 422 plan_mismatch", async () => {
    const api = await startApi()
    expectProblem(await subscribe(api, { ...team, planName: "Business" }), 422, "plan_mismatch")
  })

  it.each([19.98, 19.999, 20, -1, 0, 0.1 + 0.2])(
    "answers the price %s for Team with 422 price_mismatch",
    async (price) => {
      const api = await startApi()
      expectProblem(await subscribe(api, { ...team, price }), 422, "price_mismatch")
      expectProblem(await current(api), 404, "not_found")
    }
  )

  it.each([
    ["a string price", { ...team, price: "19.99" }],
    ["a missing price", { planId: "team", planName: "Team" }],
    ["a numeric planId", { ...team, planId: 2 }]
  ])("answers %s with 400 validation_failed", async (_, body) => {
    const api = await startApi()
    expectProblem(await subscribe(api, body), 400, "validation_failed")
  })

  it.each([
    ["the string NaN", '{"planId":"team","planName":"Team","price":"NaN"}'],
    ["a number beyond a double (1e309)", '{"planId":"team","planName":"Team","price":1e309}'],
    ["malformed JSON", '{"planId":"team",']
  ])("answers %s with 400 and opens nothing", async (_, rawBody) => {
    const api = await startApi()
    const answer = await subscribeRaw(api, rawBody)
    expectProblem(answer, 400, "validation_failed")
    expectProblem(await current(api), 404, "not_found")
  })

  it("accepts the price written with trailing zeros in raw JSON", async () => {
    const api = await startApi()
    const answer = await subscribeRaw(api, '{"planId":"business","planName":"Business","price":99.00}')
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.price).toBe(99)
  })

  it("answers subscribing again to the active plan with 409 already_subscribed", async () => {
    const api = await startApi()
    const first = await subscribe(api, free)
    expect(first.body.status).toBe("active")
    expectProblem(await subscribe(api, free), 409, "already_subscribed")
    expect((await current(api)).body.id).toBe(first.body.id)
  })

  it("lets a newer subscribe replace a pending one", async () => {
    const api = await startApi()
    const first = await subscribe(api, team)
    const second = await subscribe(api, business)
    expect(second.status, second.text).toBe(200)
    expect(second.body.id).not.toBe(first.body.id)
    expect((await current(api)).body).toMatchObject({ id: second.body.id, planId: "business" })
  })

  it("refuses a member lacking billing.subscribe with 403 and opens nothing", async () => {
    const api = await startApi()
    const { token } = await memberWithPermissions(api, "reader", [1, 5])
    const answer = await subscribe(api, team, token)
    expectProblem(answer, 403, "forbidden")
    expect(answer.body.permission).toBe("billing.subscribe")
    expectProblem(await current(api), 404, "not_found")
  })

  it("lets a member holding billing.subscribe subscribe", async () => {
    const api = await startApi()
    const { token } = await memberWithPermissions(api, "buyer", [5, 6])
    expect((await subscribe(api, team, token)).body.status).toBe("pending")
  })
})

describe("GET /api/v1/pricing/subscription", () => {
  it("is 404 not_found before any subscription", async () => {
    const api = await startApi()
    expectProblem(await current(api), 404, "not_found")
  })

  it("answers the current subscription with its public fields only", async () => {
    const api = await startApi()
    const created = await subscribe(api, team)
    const answer = await current(api)
    expect(answer.status, answer.text).toBe(200)
    expectPublicSubscription(answer.body)
    expect(answer.body).toEqual(created.body)
    expect(answer.body).toMatchObject({ status: "pending", ...team, currency: "EUR" })
    expect(answer.body.history).toEqual([{ status: "pending", at: answer.body.createdAt }])
    expect(Number.isNaN(Date.parse(answer.body.updatedAt))).toBe(false)
  })
})
