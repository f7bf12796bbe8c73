import { Effect, Layer } from "effect"
import { auditTrailLayer, makePaymentInbox, makeSubscriptionStore } from "../../adapters/memory/index.ts"
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

export const interleavingSubscriptionStore = Layer.effect(
  SubscriptionStore,
  Effect.map(makeSubscriptionStore, (store) =>
    SubscriptionStore.of({
      insert: (subscription, entry) => interleaved(store.insert(subscription, entry)),
      findById: (id) => interleaved(store.findById(id)),
      findByProviderSubscriptionId: (id) => interleaved(store.findByProviderSubscriptionId(id)),
      listOpen: interleaved(store.listOpen),
      latest: interleaved(store.latest),
      replace: (next, entry) => interleaved(store.replace(next, entry))
    })
  )
).pipe(Layer.provide(auditTrailLayer))

export const interleavingPaymentInbox = Layer.effect(
  PaymentInbox,
  Effect.map(makePaymentInbox, (inbox) =>
    PaymentInbox.of({
      receive: (entry) => interleaved(inbox.receive(entry)),
      complete: (eventId, outcome, at) => interleaved(inbox.complete(eventId, outcome, at))
    })
  )
)
