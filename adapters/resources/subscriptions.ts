import { Effect, Layer, Option } from "effect"
import { inOrganization, isOpen, Subscription, SubscriptionStore } from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"

/**
 * Subscriptions, by our id; found by the provider's id and listed by organisation, newest first
 * (`byCreation`, the id breaking ties). `version` is a column so that a replace is made only over
 * the version it was made from, in the one write that makes it.
 */
export const subscriptions = resource({
  name: "subscriptions",
  schema: Subscription,
  key: "id",
  columns: ["id", "organizationId", "providerSubscriptionId", "version", "createdAt"],
  indexes: [
    ["providerSubscriptionId", "createdAt"],
    ["organizationId", "createdAt"]
  ],
  audit: "subscription"
})

const newestFirst = { by: ["createdAt"], descending: true } as const

export const subscriptionStoreLayer = Layer.effect(
  SubscriptionStore,
  Effect.gen(function* () {
    const stored = yield* (yield* RecordKit).open(subscriptions)
    const newestOf = (where: Parameters<typeof stored.list>[0]) =>
      stored
        .list(where, { ...newestFirst, limit: 1 })
        .pipe(Effect.map((found) => Option.fromNullishOr(found[0])))
    return SubscriptionStore.of({
      insert: (subscription, entry) => refusalIsDefect(stored.insert(subscription, entry)),
      findById: (id) => stored.find({ id }),
      findByProviderSubscriptionId: (providerSubscriptionId) => newestOf({ providerSubscriptionId }),
      listOpen: inOrganization((organizationId) => stored.list({ organizationId }, newestFirst)).pipe(
        Effect.map((found) => found.filter(isOpen))
      ),
      latest: inOrganization((organizationId) => newestOf({ organizationId })),
      replace: (next, entry) =>
        inOrganization((organizationId) =>
          stored.modify({ id: next.id, organizationId, version: next.version - 1 }, () => next, entry)
        ).pipe(Effect.map(Option.isSome))
    })
  })
)
