import { Effect, Layer, Redacted } from "effect"
import { MongoClient } from "mongodb"
import { inject } from "vitest"
import { MemoryStores } from "../../adapters/memory/index.ts"
import { mongoStores } from "../../adapters/mongodb/index.ts"

/** The MongoDB the database tests use: `MONGODB_URI` when set, else the FerretDB of this run. */
export const mongoUri = () => inject("mongoUri")

/** A database of its own for one test, dropped when the test's layer is released. */
const scratchDatabase = Effect.acquireRelease(
  Effect.sync(() => `roster_test_${crypto.randomUUID().replaceAll("-", "")}`),
  (database) =>
    Effect.promise(async () => {
      const client = new MongoClient(mongoUri(), { serverSelectionTimeoutMS: 3000 })
      await client.db(database).dropDatabase()
      await client.close()
    })
)

/** Every store port on MongoDB (FerretDB unless `MONGODB_URI` names a server), in a fresh database. */
export const mongoTestStores = Layer.unwrap(
  Effect.map(scratchDatabase, (database) => mongoStores({ uri: Redacted.make(mongoUri()), database }))
)

/** The same ports in process memory. */
export const memoryTestStores = MemoryStores

export const storeKinds = [
  ["memory", () => memoryTestStores],
  ["mongodb", () => mongoTestStores]
] as const
