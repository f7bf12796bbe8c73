import { Effect, Layer, Option } from "effect"
import { InboxEntry, PaymentInbox } from "../../core/index.ts"
import { RecordKit } from "./records.ts"
import { resource } from "./resource.ts"

/**
 * Every verified provider event, by its id: the key, so that of two instances receiving one event
 * at once, one records it and the other finds its entry.
 */
export const paymentEvents = resource({
  name: "payment_events",
  schema: InboxEntry,
  key: "eventId",
  columns: ["eventId"]
})

export const paymentInboxLayer = Layer.effect(
  PaymentInbox,
  Effect.gen(function* () {
    const events = yield* (yield* RecordKit).open(paymentEvents)
    return PaymentInbox.of({
      receive: (entry) =>
        events.insert(entry).pipe(
          Effect.as(Option.none<InboxEntry>()),
          Effect.catchTags({
            Taken: () =>
              events
                .find({ eventId: entry.eventId })
                .pipe(
                  Effect.flatMap((earlier) =>
                    Option.isSome(earlier)
                      ? Effect.succeed(earlier)
                      : Effect.die(new Error("a duplicate event vanished"))
                  )
                ),
            Full: (full) => Effect.die(full)
          })
        ),
      complete: (eventId, outcome, at) =>
        events
          .modify({ eventId }, (entry) => new InboxEntry({ ...entry, outcome, completedAt: at }))
          .pipe(Effect.asVoid)
    })
  })
)
