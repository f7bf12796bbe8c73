import { Effect } from "effect"
import type { Collection, Db } from "mongodb"
import { abandonedAfterMs } from "../../adapters/mongodb/consistency/fences.ts"

/** `db`, but each `method` call on `collection` runs `change` after the server answered and before the caller hears. */
const overtaking =
  (method: "findOne" | "findOneAndUpdate" | "updateMany") =>
  (db: Db, collection: string, change: Effect.Effect<unknown, unknown>) => {
    const overtaken = (target: Collection) =>
      new Proxy(target, {
        get: (inner, property) =>
          property === method
            ? async (...args: Array<unknown>) => {
                const answer = await Reflect.apply(Reflect.get(inner, method, inner), inner, args)
                await Effect.runPromise(change)
                return answer
              }
            : Reflect.get(inner, property, inner)
      })
    return new Proxy(db, {
      get: (target, property) =>
        property === "collection"
          ? (name: string) =>
              name === collection ? overtaken(target.collection(name)) : target.collection(name)
          : Reflect.get(target, property, target)
    })
  }

/** A read overtaken by another request's change, as a race would have it. */
export const withReadsOvertaken = overtaking("findOne")

/** A write overtaken, once it is made, by another request's change before it goes on. */
export const withWritesOvertaken = overtaking("findOneAndUpdate")

/** The same, for a write of many documents. */
export const withManyWritesOvertaken = overtaking("updateMany")

/**
 * `change` the first time it runs and nothing after (a race overtakes the first attempt, not its
 * retries), with whether it ran, for the test to check that the race was played.
 */
export const once = (change: Effect.Effect<unknown, unknown>) => {
  let ran = false
  return {
    change: Effect.suspend(() => {
      if (ran) return Effect.void
      ran = true
      return change
    }),
    ran: () => ran
  }
}

/** A fence as a process that stopped mid-change leaves it: older than any write takes. */
export const abandonedFence = () => ({ id: "abandoned", at: new Date(Date.now() - abandonedAfterMs - 1000) })
