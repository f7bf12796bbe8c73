import { type Context, Effect, Layer } from "effect"
import { auditTrailLayer, memoryKitLayer } from "../../adapters/memory/index.ts"
import { paymentInboxLayer, type RecordKit, subscriptionStoreLayer } from "../../adapters/resources/index.ts"
import { PaymentInbox, SubscriptionStore } from "../../core/index.ts"

/**
 * Yields to other fibers before and after `self`. The in-memory stores answer synchronously, so
 * without this, "concurrent" use cases would run one after the other and never race.
 */
export const interleaved = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.yieldNow.pipe(
    Effect.andThen(self),
    Effect.tap(() => Effect.yieldNow)
  )

/** The store `layer` makes on the in-memory kit (its trail of its own), with `change` applied over it. */
export const memoryStoreChanged = <Identifier, Shape>(
  tag: Context.Service<Identifier, Shape>,
  layer: Layer.Layer<Identifier, unknown, RecordKit>,
  change: (store: Shape) => Shape
): Layer.Layer<Identifier> =>
  Layer.effect(tag)(tag.use((store) => Effect.succeed(change(store)))).pipe(
    Layer.provide(layer),
    Layer.provide(memoryKitLayer),
    Layer.provide(auditTrailLayer),
    Layer.orDie
  )

export const interleavingSubscriptionStore = memoryStoreChanged(
  SubscriptionStore,
  subscriptionStoreLayer,
  (store) =>
    SubscriptionStore.of({
      insert: (subscription, entry) => interleaved(store.insert(subscription, entry)),
      findById: (id) => interleaved(store.findById(id)),
      findByProviderSubscriptionId: (id) => interleaved(store.findByProviderSubscriptionId(id)),
      listOpen: interleaved(store.listOpen),
      latest: interleaved(store.latest),
      replace: (next, entry) => interleaved(store.replace(next, entry))
    })
)

export const interleavingPaymentInbox = memoryStoreChanged(PaymentInbox, paymentInboxLayer, (inbox) =>
  PaymentInbox.of({
    receive: (entry) => interleaved(inbox.receive(entry)),
    complete: (eventId, outcome, at) => interleaved(inbox.complete(eventId, outcome, at))
  })
)
