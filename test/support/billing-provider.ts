import { Effect } from "effect"
import { type MemoryPaymentProvider, makeMemoryPaymentProvider } from "../../adapters/memory/index.ts"
import type { RosterOptions } from "../../app/roster-layer.ts"
import { AuditLog, type Subscription } from "../../core/index.ts"
import { apply, event } from "./payment-events.ts"
import { provideRoster } from "./roster.ts"

/** Runs `body` on the in-memory roster (with `options`) and a recording provider it can inspect. */
export const withProvider = <A, E, R>(
  body: (provider: MemoryPaymentProvider) => Effect.Effect<A, E, R>,
  options: RosterOptions = {}
) => {
  const provider = makeMemoryPaymentProvider()
  return body(provider).pipe(provideRoster({ ...options, paymentProvider: provider.layer }))
}

/** The operations that took effect at the provider, in order. */
export const operations = (provider: MemoryPaymentProvider) =>
  provider.effects().map((call) => call.operation)

/** The checkout of `pending`, paid: the provider's subscription `providerSubscriptionId` now bills it. */
export const paid = (pending: Subscription, providerSubscriptionId: string, second: number) =>
  apply(
    event("PaymentSucceeded", `evt_paid_${pending.id}`, second, {
      subscriptionId: pending.id,
      providerSubscriptionId
    })
  )

/** Every audit entry as `action:target`, newest first. */
export const auditActions = AuditLog.use((log) => log.page({}, 100)).pipe(
  Effect.map((entries) => entries.map((entry) => `${entry.action}:${entry.target.id}`))
)
