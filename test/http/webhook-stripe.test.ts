import { describe, expect, it } from "vitest"
import { masterKey, startApi, type TestApi } from "../support/http.ts"
import { stripeSignature } from "../support/stripe.ts"
import {
  checkoutCompleted,
  currentSubscription,
  deliver,
  deliverSigned,
  eventPayload,
  expectOutcome,
  expectSignatureRefused,
  providerCustomerId,
  providerSubscriptionId,
  statusOf,
  subscribe,
  testPlan
} from "../support/webhook.ts"

/** When the checkout happened, in seconds; later events are created this many seconds after it. */
const checkoutAt = Math.floor(Date.now() / 1000) - 3600
const later = (seconds: number) => checkoutAt + seconds

/** A team subscription, activated by its checkout (created at `checkoutAt`). */
const activeSubscription = async (api: TestApi) => {
  const id = await subscribe(api)
  expectOutcome(await deliverSigned(api, checkoutCompleted(id, { created: checkoutAt })), "applied")
  expect(await statusOf(api)).toBe("active")
  return id
}

/** The two places an invoice names the provider's subscription (older and newer API versions). */
const invoiceShapes: Record<string, Record<string, unknown>> = {
  "data.object.subscription": { subscription: providerSubscriptionId },
  "data.object.parent.subscription_details.subscription": {
    parent: { type: "subscription_details", subscription_details: { subscription: providerSubscriptionId } }
  }
}

const invoice = (
  type: "invoice.paid" | "invoice.payment_failed",
  created: number,
  shape: Record<string, unknown> = { subscription: providerSubscriptionId }
) => eventPayload(type, { object: "invoice", customer: providerCustomerId, ...shape }, created)

const subscriptionEvent = (type: string, created: number, status: string) =>
  eventPayload(
    type,
    { object: "subscription", id: providerSubscriptionId, customer: providerCustomerId, status },
    created
  )

/** The `v1` value of a Stripe-Signature header. */
const v1Of = (header: string) =>
  header
    .split(",")
    .find((part) => part.startsWith("v1="))
    ?.slice(3) ?? ""

describe("the Stripe scheme with a rotated secret", () => {
  it("accepts deliveries signed with the old or the new secret and refuses a third secret", async () => {
    const [old, current, other] = ["whsec_old_secret", "whsec_new_secret", "whsec_other_secret"]
    const api = await startApi({ webhookSecrets: [old, current] })
    const id = await subscribe(api)
    expectOutcome(await deliverSigned(api, checkoutCompleted(id, { created: checkoutAt }), old), "applied")
    expect(await statusOf(api)).toBe("active")
    expectOutcome(await deliverSigned(api, invoice("invoice.payment_failed", later(10)), current), "applied")
    expect(await statusOf(api)).toBe("past_due")
    expectSignatureRefused(await deliverSigned(api, invoice("invoice.paid", later(20)), other))
    expect(await statusOf(api)).toBe("past_due")
  })
})

describe("a Stripe-Signature header with several v1 values", () => {
  const signedBoth = (payload: string, secrets: [string | undefined, string | undefined]) => {
    const timestamp = Math.floor(Date.now() / 1000)
    const values = secrets.map((secret) =>
      v1Of(stripeSignature(payload, { timestamp, ...(secret === undefined ? {} : { secret }) }))
    )
    for (const value of values) expect(value).toMatch(/^[0-9a-f]{64}$/)
    return `t=${timestamp},${values.map((value) => `v1=${value}`).join(",")}`
  }

  it("is accepted when a wrong v1 comes first and the right one after it", async () => {
    const api = await startApi()
    const payload = checkoutCompleted(await subscribe(api))
    const header = signedBoth(payload, ["whsec_wrong_one", undefined])
    expectOutcome(await deliver(api, payload, { "stripe-signature": header }), "applied")
    expect(await statusOf(api)).toBe("active")
  })

  it("is refused when every v1 is wrong, changing nothing", async () => {
    const api = await startApi()
    const payload = checkoutCompleted(await subscribe(api))
    const header = signedBoth(payload, ["whsec_wrong_one", "whsec_wrong_two"])
    expectSignatureRefused(await deliver(api, payload, { "stripe-signature": header }))
    expect(await statusOf(api)).toBe("pending")
  })
})

describe("deliveries of Stripe events", () => {
  it("applies one of 20 concurrent deliveries of a checkout and calls the other 19 duplicates", async () => {
    const api = await startApi()
    const payload = checkoutCompleted(await subscribe(api))
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliverSigned(api, payload)))
    for (const answer of answers) expect(answer.status, answer.text).toBe(200)
    const outcomes = answers.map((answer) => answer.body.outcome as string)
    expect(outcomes.filter((outcome) => outcome === "applied")).toHaveLength(1)
    expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(19)
    const subscription = await currentSubscription(api)
    expect(subscription.status).toBe("active")
    expect(subscription.history.map((change) => change.status)).toEqual(["pending", "active"])
  })

  it.each(Object.entries(invoiceShapes))(
    "never moves a subscription back for an older invoice delivered late (%s)",
    async (_, shape) => {
      const api = await startApi()
      await activeSubscription(api)
      expectOutcome(await deliverSigned(api, invoice("invoice.paid", later(20), shape)), "unchanged")
      expectOutcome(await deliverSigned(api, invoice("invoice.payment_failed", later(10), shape)), "stale")
      expect(await statusOf(api)).toBe("active")
      // The same shape, newer than everything applied, does move it: the reference was found.
      expectOutcome(await deliverSigned(api, invoice("invoice.payment_failed", later(30), shape)), "applied")
      expect(await statusOf(api)).toBe("past_due")
    }
  )

  it("follows the lifecycle pending → active → past_due → active → canceled", async () => {
    const api = await startApi()
    const id = await subscribe(api)
    expect(await statusOf(api)).toBe("pending")
    const steps = [
      [checkoutCompleted(id, { created: checkoutAt }), "active"],
      [invoice("invoice.payment_failed", later(10)), "past_due"],
      [invoice("invoice.paid", later(20)), "active"],
      [subscriptionEvent("customer.subscription.deleted", later(30), "canceled"), "canceled"]
    ] as const
    for (const [payload, status] of steps) {
      expectOutcome(await deliverSigned(api, payload), "applied")
      expect(await statusOf(api)).toBe(status)
    }
    const subscription = await currentSubscription(api)
    expect(subscription.history.map((change) => change.status)).toEqual([
      "pending",
      "active",
      "past_due",
      "active",
      "canceled"
    ])
  })

  it("moves the subscription to past_due on customer.subscription.updated with status past_due", async () => {
    const api = await startApi()
    await activeSubscription(api)
    const updated = subscriptionEvent("customer.subscription.updated", later(10), "past_due")
    expectOutcome(await deliverSigned(api, updated), "applied")
    expect(await statusOf(api)).toBe("past_due")
  })

  it("shows a subscription set to cancel at its period's end as canceling, until Stripe resumes it", async () => {
    const api = await startApi()
    await activeSubscription(api)
    const endsAt = later(30 * 86_400)
    const ending = eventPayload(
      "customer.subscription.updated",
      {
        object: "subscription",
        id: providerSubscriptionId,
        status: "active",
        cancel_at_period_end: true,
        cancel_at: endsAt
      },
      later(10)
    )
    expectOutcome(await deliverSigned(api, ending), "applied")
    expect(await currentSubscription(api)).toMatchObject({
      status: "canceling",
      cancelAt: new Date(endsAt * 1000).toISOString()
    })
    const resumed = subscriptionEvent("customer.subscription.updated", later(20), "active")
    expectOutcome(await deliverSigned(api, resumed), "applied")
    expect(await currentSubscription(api)).not.toHaveProperty("cancelAt")
    expect(await statusOf(api)).toBe("active")
  })

  it("finds a subscription by the metadata Roster gave it, when an invoice comes before the checkout", async () => {
    const api = await startApi()
    const id = await subscribe(api)
    const paidFirst = invoice("invoice.paid", later(5), {
      parent: {
        type: "subscription_details",
        subscription_details: {
          subscription: providerSubscriptionId,
          metadata: { roster_subscription_id: id }
        }
      }
    })
    expectOutcome(await deliverSigned(api, paidFirst), "applied")
    expect(await currentSubscription(api)).toMatchObject({ id, status: "active" })
    // Once the provider's id is recorded, our reference alone no longer names the subscription.
    for (const type of ["customer.subscription.deleted", "customer.subscription.updated"]) {
      const another = eventPayload(
        type,
        {
          object: "subscription",
          id: "sub_another_at_stripe",
          status: "canceled",
          metadata: { roster_subscription_id: id }
        },
        later(10)
      )
      expectOutcome(await deliverSigned(api, another), "unmatched")
    }
    expect(await statusOf(api)).toBe("active")
    const deleted = subscriptionEvent("customer.subscription.deleted", later(20), "canceled")
    expectOutcome(await deliverSigned(api, deleted), "applied")
    expect(await statusOf(api)).toBe("canceled")
  })

  it("cancels a pending subscription whose checkout expired unpaid", async () => {
    const api = await startApi()
    const id = await subscribe(api)
    const expired = eventPayload("checkout.session.expired", {
      object: "checkout.session",
      client_reference_id: id,
      status: "expired"
    })
    expectOutcome(await deliverSigned(api, expired), "applied")
    expect(await currentSubscription(api)).toMatchObject({ id, status: "canceled" })
  })

  it("leaves an active subscription active when a checkout of it expires", async () => {
    const api = await startApi()
    const id = await activeSubscription(api)
    const expired = eventPayload(
      "checkout.session.expired",
      { object: "checkout.session", client_reference_id: id, status: "expired" },
      later(30)
    )
    expectOutcome(await deliverSigned(api, expired), "unchanged")
    expect(await currentSubscription(api)).toMatchObject({ id, status: "active" })
  })

  it("refuses a signature dated beyond the tolerance either way, and changes nothing", async () => {
    const api = await startApi()
    await subscribe(api)
    const now = Math.floor(Date.now() / 1000)
    for (const timestamp of [now + 3600, now + 360, now - 3600]) {
      const payload = checkoutCompleted(await subscribe(api, testPlan.business), { created: now })
      const signed = stripeSignature(payload, { timestamp })
      expectSignatureRefused(await deliver(api, payload, { "stripe-signature": signed }))
      expect(await statusOf(api)).toBe("pending")
    }
  })

  it("changes nothing for a checkout whose payment_status is unpaid", async () => {
    const api = await startApi()
    const payload = checkoutCompleted(await subscribe(api), { paymentStatus: "unpaid" })
    expectOutcome(await deliverSigned(api, payload), "ignored")
    const subscription = await currentSubscription(api)
    expect(subscription.status).toBe("pending")
    expect(subscription.history.map((change) => change.status)).toEqual(["pending"])
  })

  it("records an ignored event, so that its redelivery is a duplicate", async () => {
    const api = await startApi()
    const payload = eventPayload("customer.created", { object: "customer", id: providerCustomerId })
    expectOutcome(await deliverSigned(api, payload), "ignored")
    expectOutcome(await deliverSigned(api, payload), "duplicate")
  })

  it("activates a free plan at once, with no webhook", async () => {
    const api = await startApi()
    const answer = await api.call("POST", "/api/v1/pricing/subscribe", {
      token: masterKey,
      body: testPlan.free
    })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.status).toBe("active")
    const subscription = await currentSubscription(api)
    expect(subscription).toMatchObject({ id: answer.body.id, status: "active", price: 0 })
    expect(subscription.history.map((change) => change.status)).toEqual(["active"])
  })
})
