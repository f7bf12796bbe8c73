import { Effect } from "effect"
import { type Db, type IndexDescription, MongoServerError } from "mongodb"
import type { Resource } from "../resources/resource.ts"
import { query } from "./driver.ts"

/** The server already holds an index of these keys under another name (made by an earlier version). */
const conflicting = new Set([85, 86])

const sameKeys = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b)

const indexNotFound = 27
const droppedAlready = (error: unknown) => {
  if (!(error instanceof MongoServerError && error.code === indexNotFound)) throw error
}

/**
 * The indexes a resource's declaration asks for: one unique index per unique combination of
 * columns, one per lookup (the key last, so a list's order is the index's), and the capacity's
 * slots, unique per owner. The key is `_id`, which the server holds unique already.
 */
export const kitIndexesOf = <R extends object>(declared: Resource<R>): ReadonlyArray<IndexDescription> => {
  const field = (column: string) => (column === declared.key ? "_id" : column)
  const keys = (columns: ReadonlyArray<string>) =>
    Object.fromEntries(columns.map((column) => [field(column), 1]))
  const named = (kind: string, columns: ReadonlyArray<string>) => `${kind}_${columns.map(field).join("_")}`
  return [
    ...(declared.unique ?? [])
      .filter((columns) => !(columns.length === 1 && columns[0] === declared.key))
      .map((columns) => ({ key: keys(columns), name: named("unique", columns), unique: true })),
    ...(declared.indexes ?? []).map((columns) => ({
      key: keys([...columns, "_id"]),
      name: named("by", columns)
    })),
    ...(declared.capacity === undefined
      ? []
      : [
          {
            key: { [declared.capacity.column]: 1, slot: 1 },
            name: named("slot", [declared.capacity.column]),
            unique: true
          }
        ])
  ]
}

/**
 * Creates a resource's indexes where they are missing, one per command (FerretDB fails a batch that
 * repeats one it has): every instance does at start. An index of the same keys an earlier version
 * made under another name is replaced by the declared one.
 */
export const ensureKitIndexes = <R extends object>(db: Db, declared: Resource<R>) =>
  Effect.gen(function* () {
    const collection = db.collection(declared.name)
    for (const { key, ...options } of kitIndexesOf(declared)) {
      yield* query(async () => {
        try {
          await collection.createIndex(key, options)
        } catch (error) {
          if (!(error instanceof MongoServerError && conflicting.has(Number(error.code)))) throw error
          for (const index of await collection.listIndexes().toArray()) {
            const replaced = sameKeys(index.key, key) !== (index.name === options.name)
            // Another instance starting now may have dropped it first.
            if (replaced) await collection.dropIndex(index.name).catch(droppedAlready)
          }
          await collection.createIndex(key, options)
        }
      })
    }
  })
