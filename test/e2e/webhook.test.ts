import { afterEach, describe, expect, it } from "vitest"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"
import { stripeSignature } from "../support/stripe.ts"
import { checkoutCompleted, webhookPath } from "../support/webhook.ts"

const masterKey = "e2e-master-key-long-enough-for-roster-0123"
const webhookSecret = "whsec_e2e_webhook_secret_for_roster"

let server: RunningServer | undefined
afterEach(() => {
  server?.kill()
  server = undefined
})

const request = (
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string> }
) =>
  fetch(`${server?.url}${path}`, {
    method,
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body })
  })

/** As an operator's client calls the API: the master key and `Content-Type: *\/*`. */
const asOperator = (method: string, path: string, body?: unknown) =>
  request(method, path, {
    headers: { authorization: `Bearer ${masterKey}`, "content-type": "*/*" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

describe("the payment webhook of the running service (npm start)", () => {
  it("activates a subscription when Stripe delivers its signed checkout.session.completed", async () => {
    server = await startServer(scriptCommand("start"), {
      ROSTER_MASTER_KEY: masterKey,
      ROSTER_WEBHOOK_SECRET: webhookSecret
    })
    // The shipped catalog (config/plans.json): Team is 19 EUR.
    const subscribed = await asOperator("POST", "/api/v1/pricing/subscribe", {
      planId: "team",
      planName: "Team",
      price: 19
    })
    expect(subscribed.status).toBe(200)
    const { id, status } = (await subscribed.json()) as { id: string; status: string }
    expect(status).toBe("pending")

    const payload = checkoutCompleted(id)
    const unsigned = await request("POST", webhookPath, {
      body: payload,
      headers: { "content-type": "application/json" }
    })
    expect(unsigned.status).toBe(400)

    const delivered = await request("POST", webhookPath, {
      body: payload,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "stripe-signature": stripeSignature(payload, { secret: webhookSecret })
      }
    })
    expect(delivered.status).toBe(200)
    expect(await delivered.json()).toEqual({ received: true, outcome: "applied" })

    const current = await asOperator("GET", "/api/v1/pricing/subscription")
    expect(current.status).toBe(200)
    expect(await current.json()).toMatchObject({ id, status: "active", planId: "team", price: 19 })
  })
})
