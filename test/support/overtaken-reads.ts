import { Effect } from "effect"
import type { Collection, Db } from "mongodb"

/**
 * `db`, but each `findOne` on `collection` runs `change` after it has read and before it answers:
 * a read overtaken by another request's change, as a race would have it.
 */
export const withReadsOvertaken = (db: Db, collection: string, change: Effect.Effect<unknown, unknown>) => {
  const overtaken = (target: Collection) =>
    new Proxy(target, {
      get: (inner, property) =>
        property === "findOne"
          ? async (...args: Parameters<Collection["findOne"]>) => {
              const found = await inner.findOne(...args)
              await Effect.runPromise(change)
              return found
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
