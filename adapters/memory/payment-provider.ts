import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { Checkout, PaymentProvider, ProviderUnavailable, type SubscriptionId } from "../../core/index.ts"

export const providerOperations = [
  "openCheckout",
  "closeCheckout",
  "cancelNow",
  "cancelAtPeriodEnd",
  "setSeats"
] as const
export type ProviderOperation = (typeof providerOperations)[number]

/** One request the provider received: what was asked, for which of our subscriptions. */
export interface ProviderCall {
  readonly operation: ProviderOperation
  readonly subscriptionId: SubscriptionId
  readonly providerPriceId?: string | undefined
  readonly quantity?: number
  readonly providerSubscriptionId?: string
  readonly checkoutId?: string
}

/** A payment provider in memory, its calls recorded, and down when a test says so. */
export interface MemoryPaymentProvider {
  readonly layer: Layer.Layer<PaymentProvider>
  /** Every request, repeats included, in order. */
  readonly calls: ReadonlyArray<ProviderCall>
  /** What took effect: a request repeated with the same arguments counts once, as with an idempotency key. */
  readonly effects: () => ReadonlyArray<ProviderCall>
  /** Operations that fail as `ProviderUnavailable`, changing nothing, while they are listed. */
  unavailable: ReadonlySet<ProviderOperation>
}

/** How long the period runs that a cancellation at the period's end waits for. */
const period = Duration.days(30)

/**
 * A stateful stand-in for the payment provider, for unit tests and embedders: it hosts checkouts
 * at `https://checkout.example/<id>`, ends subscriptions 30 days after being asked to cancel them
 * at the period's end, and treats a request it has seen before as a replay.
 */
export const makeMemoryPaymentProvider = (): MemoryPaymentProvider => {
  const calls: Array<ProviderCall> = []
  const effects = new Map<string, ProviderCall>()
  const provider: MemoryPaymentProvider = {
    calls,
    effects: () => [...effects.values()],
    unavailable: new Set(),
    layer: Layer.sync(PaymentProvider, () =>
      PaymentProvider.of({
        openCheckout: (request) =>
          record({ operation: "openCheckout", ...request }).pipe(
            Effect.as(
              Option.some(
                new Checkout({
                  id: `cs_${request.subscriptionId}`,
                  url: `https://checkout.example/cs_${request.subscriptionId}`
                })
              )
            )
          ),
        closeCheckout: (subscriptionId, checkout) =>
          record({ operation: "closeCheckout", subscriptionId, checkoutId: checkout.id }),
        cancelNow: (subscription) => record({ operation: "cancelNow", ...subscription }),
        cancelAtPeriodEnd: (subscription, version) =>
          record({ operation: "cancelAtPeriodEnd", ...subscription }, version).pipe(
            Effect.andThen(DateTime.now),
            Effect.map((now) => ({ _tag: "AtPeriodEnd" as const, endsAt: DateTime.addDuration(now, period) }))
          ),
        setSeats: (subscription, seats, version) =>
          record({ operation: "setSeats", ...subscription, quantity: seats }, version)
      })
    )
  }
  const record = (call: ProviderCall, ...distinguishing: ReadonlyArray<unknown>) =>
    Effect.suspend(() => {
      calls.push(call)
      if (provider.unavailable.has(call.operation)) return Effect.fail(new ProviderUnavailable())
      const key = JSON.stringify([call, ...distinguishing])
      if (!effects.has(key)) effects.set(key, call)
      return Effect.void
    })
  return provider
}
