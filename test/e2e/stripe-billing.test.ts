import { writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"
import { stripeSignature } from "../support/stripe.ts"
import { type StripeMock, startStripeMock } from "../support/stripe-mock.ts"
import { checkoutCompleted, eventPayload, webhookPath } from "../support/webhook.ts"

const masterKey = "e2e-master-key-long-enough-for-roster-stripe"
const webhookSecret = "whsec_e2e_stripe_billing_secret"

let server: RunningServer | undefined
let stripe: StripeMock | undefined
afterEach(async () => {
  server?.kill()
  server = undefined
  await stripe?.stop()
  stripe = undefined
})

/** The shipped catalog with the Stripe prices an operator adds to it. */
const plansFile = () => {
  const path = join(tmpdir(), `roster-stripe-plans-${crypto.randomUUID()}.json`)
  writeFileSync(
    path,
    JSON.stringify([
      { planId: "free", planName: "Free", price: { amountMinor: 0, currency: "EUR" } },
      {
        planId: "team",
        planName: "Team",
        price: { amountMinor: 1900, currency: "EUR" },
        stripePriceId: "price_team"
      },
      {
        planId: "business",
        planName: "Business",
        price: { amountMinor: 9900, currency: "EUR" },
        stripePriceId: "price_business"
      }
    ])
  )
  return path
}

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server?.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${masterKey}`, "content-type": "*/*" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const deliver = async (payload: string) => {
  const response = await fetch(`${server?.url}${webhookPath}`, {
    method: "POST",
    headers: { "stripe-signature": stripeSignature(payload, { secret: webhookSecret }) },
    body: payload
  })
  return { status: response.status, body: await response.json() }
}

describe("billing through Stripe with the running service (npm start) and stripe-mock", () => {
  it("goes from subscribe to active, to canceling and canceled, and answers 503 while Stripe is down", async () => {
    stripe = await startStripeMock()
    server = await startServer(scriptCommand("start"), {
      ROSTER_MASTER_KEY: masterKey,
      ROSTER_WEBHOOK_SECRET: webhookSecret,
      ROSTER_PLANS_FILE: plansFile(),
      STRIPE_SECRET_KEY: "sk_test_RosterEndToEnd",
      STRIPE_API_URL: stripe.url,
      ROSTER_CHECKOUT_SUCCESS_URL: "https://app.example/billing/done",
      ROSTER_CHECKOUT_CANCEL_URL: "https://app.example/billing",
      ROSTER_PROVIDER_TIMEOUT: "2 seconds"
    })
    expect(server.output()).toContain(`payment provider: Stripe at ${stripe.url}`)

    const subscribed = await call("POST", "/api/v1/pricing/subscribe", {
      planId: "team",
      planName: "Team",
      price: 19
    })
    expect(subscribed.status, server.output()).toBe(200)
    expect(subscribed.body).toMatchObject({ status: "pending", planId: "team" })
    expect(subscribed.body.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//)
    const id = subscribed.body.id as string

    expect(await deliver(checkoutCompleted(id))).toEqual({
      status: 200,
      body: { received: true, outcome: "applied" }
    })
    expect((await call("GET", "/api/v1/pricing/subscription")).body).toMatchObject({ id, status: "active" })

    const canceling = await call("DELETE", "/api/v1/pricing/subscription")
    expect(canceling.status, server.output()).toBe(200)
    expect(canceling.body).toMatchObject({ id, status: "canceling" })
    expect(Date.parse(String(canceling.body.cancelAt))).not.toBeNaN()

    const deleted = eventPayload(
      "customer.subscription.deleted",
      { object: "subscription", id: "sub_provider_1", status: "canceled" },
      Math.floor(Date.now() / 1000) + 1
    )
    expect((await deliver(deleted)).body).toEqual({ received: true, outcome: "applied" })
    expect((await call("GET", "/api/v1/pricing/subscription")).body).toMatchObject({ id, status: "canceled" })

    await stripe.stop()
    const refused = await call("POST", "/api/v1/pricing/subscribe", {
      planId: "business",
      planName: "Business",
      price: 99
    })
    expect(refused).toMatchObject({ status: 503, body: { code: "unavailable" } })
    expect((await call("GET", "/api/v1/pricing/subscription")).body).toMatchObject({ id, status: "canceled" })
  })
})
