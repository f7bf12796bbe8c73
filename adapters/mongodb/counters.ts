import { Effect, Schema } from "effect"
import type { Db } from "mongodb"
import type { StoreUnavailable } from "../../core/index.ts"
import { attempt } from "./driver.ts"
import { decodeDocument } from "./stored-schema.ts"

/** A named sequence as stored: its name as `_id`, its last number allocated. */
const CounterDocument = Schema.Struct({ _id: Schema.String, value: Schema.Int })

const decode = decodeDocument(CounterDocument)

/**
 * The next integer of a named sequence, from one atomic increment: two instances never get the
 * same number. A number taken by a write that then fails is skipped, never reused.
 */
export const nextInSequence = (db: Db, name: string): Effect.Effect<number, StoreUnavailable> => {
  const counters = db.collection<typeof CounterDocument.Encoded>("counters")
  return attempt(() =>
    counters.findOneAndUpdate(
      { _id: name },
      { $inc: { value: 1 } },
      { upsert: true, returnDocument: "after" }
    )
  ).pipe(
    Effect.flatMap((counter) =>
      counter === null
        ? Effect.die(new Error(`counter ${name} was not returned`))
        : Effect.map(decode(counter), ({ value }) => value)
    ),
    // The first two allocations raced to create the counter; the loser increments the winner's.
    Effect.catchTag("DuplicateKey", () => nextInSequence(db, name))
  )
}
