import { Context, Effect, Layer, Redacted } from "effect"
import { type Db, MongoClient } from "mongodb"

/** The database the stores share; one client (and its connection pool) per process. */
export class MongoDatabase extends Context.Service<MongoDatabase, Db>()("roster/mongodb/MongoDatabase") {}

export interface MongoOptions {
  readonly uri: Redacted.Redacted<string>
  readonly database: string
  /** How long an operation waits for a server before it fails as unavailable. */
  readonly serverSelectionTimeoutMs?: number
}

/** Opens the client for the layer's lifetime and closes it with the layer. */
export const mongoDatabaseLayer = (options: MongoOptions) =>
  Layer.effect(MongoDatabase)(
    Effect.acquireRelease(
      Effect.sync(
        () =>
          new MongoClient(Redacted.value(options.uri), {
            serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 3000,
            connectTimeoutMS: 3000,
            writeConcern: { w: "majority" },
            ignoreUndefined: true
          })
      ),
      (client) => Effect.promise(() => client.close())
    ).pipe(Effect.map((client) => client.db(options.database)))
  )
