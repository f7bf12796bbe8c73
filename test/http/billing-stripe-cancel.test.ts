import { describe, expect, it } from "vitest"
import { permissionIdOf } from "../../core/index.ts"
import { billingApi, cancel, checkoutsFor, paidSubscription, whileStripe } from "../support/billing-http.ts"
import { expectProblem, masterKey, memberWithPermissions, startApi } from "../support/http.ts"
import { seatPlan, testPlans } from "../support/roster.ts"
import {
  requestsTo,
  type StripeRecorder,
  startStripeRecorder,
  stripeError
} from "../support/stripe-recorder.ts"
import {
  currentSubscription,
  deliverSigned,
  eventPayload,
  expectOutcome,
  testPlan
} from "../support/webhook.ts"

const recorder: StripeRecorder = await startStripeRecorder()

describe("DELETE /api/v1/pricing/subscription with Stripe", () => {
  it("asks Stripe to cancel at the period's end; canceling until customer.subscription.deleted", async () => {
    const api = await billingApi(recorder)
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
    const api = await billingApi(recorder)
    await paidSubscription(api, testPlan.team, "sub_kept")
    await whileStripe(recorder, { mode: "down" }, async () => {
      expectProblem(await cancel(api), 503, "unavailable")
    })
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
    const api = await billingApi(recorder)
    await paidSubscription(api, testPlan.team, "sub_guarded")
    const reader = await memberWithPermissions(api, "billing-reader", [permissionIdOf("billing.read")])
    const refused = await api.call("DELETE", "/api/v1/pricing/subscription", { token: reader.token })
    expect(expectProblem(refused, 403, "forbidden").permission).toBe("billing.subscribe")
    expect(requestsTo(recorder, "POST", "/v1/subscriptions/sub_guarded")).toEqual([])
    expect((await currentSubscription(api)).status).toBe("active")
  })
})

describe("a per-seat plan at Stripe", () => {
  /** The service on the per-seat catalog, and a way to add members to one role. */
  const seatsApi = async () => {
    const api = await billingApi(recorder, { plans: [...testPlans, seatPlan] })
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
    return { api, addMember }
  }

  it("keeps a member change when Stripe refuses the new quantity, and answers it 200", async () => {
    const { api, addMember } = await seatsApi()
    await addMember("first")
    await paidSubscription(api, { planId: "seats", planName: "Seats", price: 5 }, "sub_refusing")
    const added = await whileStripe(
      recorder,
      {
        script: (request) =>
          request.method === "POST" && request.path === "/v1/subscriptions/sub_refusing"
            ? {
                status: 401,
                body: stripeError("invalid_request_error", "Invalid API Key provided: sk_test_***")
              }
            : undefined
      },
      () => addMember("second")
    )
    expect(added.status, added.text).toBe(200)
    expect(api.logs.find((entry) => entry.status === 500)).toBeUndefined()
    expect((await currentSubscription(api)) as object).toMatchObject({ seats: 1 })
  })

  it("checks out one seat per member who can act and updates the quantity as members change", async () => {
    const { api, addMember } = await seatsApi()
    await addMember("first")
    await addMember("second")
    const id = await paidSubscription(api, { planId: "seats", planName: "Seats", price: 5 }, "sub_seats")
    expect(checkoutsFor(recorder, id)[0]?.params.get("line_items[0][quantity]")).toBe("2")
    const third = await addMember("third")
    expect(third.status, third.text).toBe(200)
    expect((await currentSubscription(api)) as object).toMatchObject({ seats: 3 })
    const updates = requestsTo(recorder, "POST", "/v1/subscriptions/sub_seats")
    expect(updates.map((request) => request.params.get("items[0][quantity]"))).toEqual(["3"])
  })
})

describe("what Stripe already settled", () => {
  const update = (path: string) => (request: { method: string; path: string }) =>
    request.method === "POST" && request.path === path
  const over = (id: string) => ({
    status: 200,
    body: {
      id,
      object: "subscription",
      status: "canceled",
      cancel_at: null,
      items: { object: "list", data: [] }
    }
  })

  it("cancels at once a subscription Stripe says is already over", async () => {
    const api = await billingApi(recorder)
    await paidSubscription(api, testPlan.team, "sub_gone")
    const answer = await whileStripe(
      recorder,
      {
        script: (request) => {
          if (update("/v1/subscriptions/sub_gone")(request)) {
            return {
              status: 400,
              body: stripeError("invalid_request_error", "This subscription is canceled")
            }
          }
          return request.method === "GET" && request.path === "/v1/subscriptions/sub_gone"
            ? over("sub_gone")
            : undefined
        }
      },
      () => cancel(api)
    )
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.status).toBe("canceled")
  })

  it("answers 503, changing nothing, when Stripe goes down while Roster checks what it refused", async () => {
    const api = await billingApi(recorder)
    await paidSubscription(api, testPlan.team, "sub_checked")
    const answer = await whileStripe(
      recorder,
      {
        script: (request) =>
          update("/v1/subscriptions/sub_checked")(request)
            ? { status: 400, body: stripeError("invalid_request_error", "Refused") }
            : request.method === "GET"
              ? "down"
              : undefined
      },
      () => cancel(api)
    )
    expectProblem(answer, 503, "unavailable")
    expect((await currentSubscription(api)).status).toBe("active")
  })

  it("tries a failure Stripe replays for a key once more under a fresh key", async () => {
    const api = await billingApi(recorder)
    await paidSubscription(api, testPlan.team, "sub_replayed")
    // Stripe keeps the 500 it answered first under that key and replays it, to the client library's retry too.
    let failedKey: string | undefined
    const answer = await whileStripe(
      recorder,
      {
        script: (request) => {
          if (!update("/v1/subscriptions/sub_replayed")(request)) return undefined
          failedKey ??= request.idempotencyKey
          if (request.idempotencyKey !== failedKey) return undefined
          return {
            status: 500,
            body: stripeError("api_error", "Something went wrong on Stripe's end"),
            headers: { "idempotent-replayed": "true" }
          }
        }
      },
      () => cancel(api)
    )
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.status).toBe("canceling")
    const keys = requestsTo(recorder, "POST", "/v1/subscriptions/sub_replayed").map(
      (request) => request.idempotencyKey
    )
    const fresh = keys.filter((key) => key !== failedKey)
    expect(fresh).toHaveLength(1)
    expect(fresh[0]?.startsWith(`${failedKey}-`)).toBe(true)
  })
})
