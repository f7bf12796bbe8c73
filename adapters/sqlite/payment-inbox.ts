import { Effect, Layer, Option } from "effect"
import { InboxEntry, PaymentInbox } from "../../core/index.ts"
import { SqliteDatabase } from "./database.ts"
import { jsonColumn } from "./values.ts"

const { encode, decode } = jsonColumn(InboxEntry)

/** Provider events by their id, each recorded once: the primary key refuses a second. */
export const makePaymentInbox = Effect.gen(function* () {
  const { write } = yield* SqliteDatabase
  return PaymentInbox.of({
    receive: (entry) =>
      write((db) => {
        const earlier = db.get("SELECT document FROM payment_inbox WHERE event_id = ?", entry.eventId)
        if (earlier !== undefined) return Option.some(decode(earlier.document))
        db.run("INSERT INTO payment_inbox (event_id, document) VALUES (?, ?)", entry.eventId, encode(entry))
        return Option.none()
      }),
    complete: (eventId, outcome, at) =>
      write((db) => {
        const row = db.get("SELECT document FROM payment_inbox WHERE event_id = ?", eventId)
        if (row === undefined) return
        const completed = new InboxEntry({ ...decode(row.document), outcome, completedAt: at })
        db.run("UPDATE payment_inbox SET document = ? WHERE event_id = ?", encode(completed), eventId)
      })
  })
})

export const paymentInboxLayer = Layer.effect(PaymentInbox, makePaymentInbox)
