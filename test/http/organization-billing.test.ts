import { describe, expect, it } from "vitest"
import { expectProblem, masterKey, startApi } from "../support/http.ts"
import {
  checkoutCompleted,
  deliverSigned,
  eventPayload,
  expectOutcome,
  providerSubscriptionId,
  testPlan
} from "../support/webhook.ts"

const inAcme = { token: masterKey, headers: { "roster-organization": "acme" } }

describe("the webhook and organisations", () => {
  it("finds the organisation through the subscription an event names, and changes nothing elsewhere", async () => {
    const api = await startApi()
    await api.call("POST", "/api/v1/organizations", {
      token: masterKey,
      body: { name: "Acme", slug: "acme" }
    })
    const subscribed = await api.call("POST", "/api/v1/pricing/subscribe", { ...inAcme, body: testPlan.team })
    expect(subscribed.status, subscribed.text).toBe(200)
    expectOutcome(await deliverSigned(api, checkoutCompleted(subscribed.body.id)), "applied")
    const acme = await api.call("GET", "/api/v1/pricing/subscription", inAcme)
    expect(acme.body).toMatchObject({ id: subscribed.body.id, status: "active" })
    expectProblem(
      await api.call("GET", "/api/v1/pricing/subscription", { token: masterKey }),
      404,
      "not_found"
    )
    const failed = eventPayload("invoice.payment_failed", {
      object: "invoice",
      subscription: providerSubscriptionId
    })
    expectOutcome(await deliverSigned(api, failed), "applied")
    expect((await api.call("GET", "/api/v1/pricing/subscription", inAcme)).body.status).toBe("past_due")
    const acmeEvents = await api.call("GET", "/api/v1/audit/events?action=subscription.updated", inAcme)
    expect(acmeEvents.body.map((event: { actor: { kind: string } }) => event.actor.kind)).toEqual([
      "provider",
      "provider"
    ])
    const ours = await api.call("GET", "/api/v1/audit/events", { token: masterKey })
    expect(ours.body).toEqual([])
  })
})
