import { Effect } from "effect"
import type { Db } from "mongodb"
import type { StoreUnavailable } from "../../core/index.ts"
import { attempt } from "./driver.ts"

interface CounterDocument {
  _id: string
  value: number
}

/**
 * The next integer of a named sequence, from one atomic increment: two instances never get the
 * same number. A number taken by a write that then fails is skipped, never reused.
 */
export const nextInSequence = (db: Db, name: string): Effect.Effect<number, StoreUnavailable> => {
  const counters = db.collection<CounterDocument>("counters")
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
        : Effect.succeed(counter.value)
    ),
    // The first two allocations raced to create the counter; the loser increments the winner's.
    Effect.catchTag("DuplicateKey", () => nextInSequence(db, name))
  )
}
