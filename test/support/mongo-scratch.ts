import { Effect, Layer, Redacted } from "effect"
import { MongoClient } from "mongodb"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { mongoUri } from "./stores.ts"

/** Every store port on `database`, as an instance starting on it builds them. */
export const storesOn = (database: string) =>
  Layer.orDie(mongoStores({ uri: Redacted.make(mongoUri()), database }))

/** Runs `use` with a client of its own, closed after: to write what a test starts from, or read what it left. */
export const withClient = <A>(use: (client: MongoClient) => Promise<A>) =>
  Effect.promise(async () => {
    const client = new MongoClient(mongoUri())
    try {
      return await use(client)
    } finally {
      await client.close()
    }
  })

/** A database name of the test's own, dropped when its scope closes. */
export const scratch = Effect.acquireRelease(
  Effect.sync(() => `roster_test_${crypto.randomUUID().replaceAll("-", "")}`),
  (database) => withClient((client) => client.db(database).dropDatabase())
)
