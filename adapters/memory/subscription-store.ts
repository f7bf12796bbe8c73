import { Effect, Layer, Option } from "effect"
import {
  byCreation,
  isOpen,
  type OrganizationId,
  type Subscription,
  SubscriptionStore,
  syncInOrganization
} from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

const newestFirst = (a: Subscription, b: Subscription) => byCreation(b, a)

export const makeSubscriptionStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const subscriptions = new Map<string, Subscription>()
  const newest = () => [...subscriptions.values()].sort(newestFirst)
  const newestOf = (organizationId: OrganizationId) =>
    newest().filter((subscription) => subscription.organizationId === organizationId)

  return SubscriptionStore.of({
    insert: (subscription, entry) =>
      Effect.sync(() => {
        subscriptions.set(subscription.id, subscription)
        trail.append(entry)
      }),
    findById: (id) => Effect.sync(() => Option.fromNullishOr(subscriptions.get(id))),
    findByProviderSubscriptionId: (providerId) =>
      Effect.sync(() =>
        Option.fromNullishOr(
          newest().find((subscription) => subscription.providerSubscriptionId === providerId)
        )
      ),
    listOpen: syncInOrganization((organizationId) => newestOf(organizationId).filter(isOpen)),
    latest: syncInOrganization((organizationId) => Option.fromNullishOr(newestOf(organizationId)[0])),
    replace: (next, entry) =>
      syncInOrganization((organizationId) => {
        const stored = subscriptions.get(next.id)
        if (stored?.organizationId !== organizationId || stored.version !== next.version - 1) return false
        subscriptions.set(next.id, next)
        trail.append(entry)
        return true
      })
  })
})

export const subscriptionStoreLayer = Layer.effect(SubscriptionStore, makeSubscriptionStore)
