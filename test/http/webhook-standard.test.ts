import { describe, expect, it } from "vitest"
import {
  type Answer,
  type ApiOptions,
  standardWebhooksSecret,
  startApi,
  type TestApi
} from "../support/http.ts"
import { stripeSignature } from "../support/stripe.ts"
import {
  checkoutCompleted,
  deliver,
  eventPayload,
  expectOutcome,
  expectSignatureRefused,
  providerSubscriptionId,
  standardWebhooksHeaders,
  statusOf,
  subscribe
} from "../support/webhook.ts"

const startStandard = (webhookSecrets?: ApiOptions["webhookSecrets"]) =>
  startApi({ webhook: "standard-webhooks", ...(webhookSecrets === undefined ? {} : { webhookSecrets }) })

/** A Standard Webhooks secret other than the tests' default one. */
const secretFrom = (text: string) => `whsec_${btoa(text)}`

/** A pending team subscription and the checkout that would activate it. */
const pendingCheckout = async (api: TestApi) => checkoutCompleted(await subscribe(api))

const expectRefusedAndPending = async (api: TestApi, answer: Answer) => {
  expectSignatureRefused(answer)
  expect(await statusOf(api)).toBe("pending")
}

describe("the payment webhook under the Standard Webhooks scheme", () => {
  it("activates the subscription on a validly signed checkout, once", async () => {
    const api = await startStandard()
    const payload = await pendingCheckout(api)
    const headers = standardWebhooksHeaders(payload)
    expectOutcome(await deliver(api, payload, headers), "applied")
    expect(await statusOf(api)).toBe("active")
    expectOutcome(await deliver(api, payload, headers), "duplicate")
  })

  it("refuses a tampered body with invalid_signature, changing nothing", async () => {
    const api = await startStandard()
    const payload = await pendingCheckout(api)
    const headers = standardWebhooksHeaders(payload)
    await expectRefusedAndPending(api, await deliver(api, payload.replace('"paid"', '"PAID"'), headers))
  })

  it.each(["webhook-id", "webhook-timestamp", "webhook-signature"] as const)(
    "refuses a delivery without the %s header",
    async (missing) => {
      const api = await startStandard()
      const payload = await pendingCheckout(api)
      const { [missing]: _, ...headers } = standardWebhooksHeaders(payload)
      expect(Object.keys(headers)).toHaveLength(2)
      await expectRefusedAndPending(api, await deliver(api, payload, headers))
    }
  )

  it("refuses a delivery signed with another secret", async () => {
    const api = await startStandard()
    const payload = await pendingCheckout(api)
    const headers = standardWebhooksHeaders(payload, { secret: secretFrom("someone else's secret") })
    await expectRefusedAndPending(api, await deliver(api, payload, headers))
  })

  it("refuses a delivery signed 10 minutes ago", async () => {
    const api = await startStandard()
    const payload = await pendingCheckout(api)
    const headers = standardWebhooksHeaders(payload, { at: new Date(Date.now() - 10 * 60 * 1000) })
    await expectRefusedAndPending(api, await deliver(api, payload, headers))
  })

  it("accepts deliveries signed with either of two secrets (rotation) and refuses a third", async () => {
    const [old, current] = [secretFrom("the old secret"), secretFrom("the new secret")]
    const api = await startStandard([old, current])
    const payload = await pendingCheckout(api)
    expectOutcome(await deliver(api, payload, standardWebhooksHeaders(payload, { secret: old })), "applied")
    expect(await statusOf(api)).toBe("active")
    const failed = eventPayload("invoice.payment_failed", {
      object: "invoice",
      subscription: providerSubscriptionId
    })
    const third = standardWebhooksHeaders(failed, { secret: secretFrom("a third secret") })
    expectSignatureRefused(await deliver(api, failed, third))
    expect(await statusOf(api)).toBe("active")
    expectOutcome(await deliver(api, failed, standardWebhooksHeaders(failed, { secret: current })), "applied")
    expect(await statusOf(api)).toBe("past_due")
  })

  it("does not accept a Stripe-Signature header", async () => {
    const api = await startStandard()
    const payload = await pendingCheckout(api)
    for (const secret of [undefined, standardWebhooksSecret]) {
      const header = stripeSignature(payload, secret === undefined ? {} : { secret })
      await expectRefusedAndPending(api, await deliver(api, payload, { "stripe-signature": header }))
    }
  })
})
