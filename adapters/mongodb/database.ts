import { Context, Effect, Layer, Redacted } from "effect"
import { type Db, MongoClient } from "mongodb"
import { replacingStuckClients } from "./stuck-monitor.ts"

/** The database the stores share; one client (and its connection pool) per process at a time. */
export class MongoDatabase extends Context.Service<MongoDatabase, Db>()("roster/mongodb/MongoDatabase") {}

export interface MongoOptions {
  readonly uri: Redacted.Redacted<string>
  readonly database: string
  /** How long an operation waits for a server before it fails as unavailable. */
  readonly serverSelectionTimeoutMs?: number
  /**
   * How often audit entries left pending on their documents are moved into the record (a second);
   * the count of round trips per request sets it long, so that it counts only what requests do.
   */
  readonly auditRelayIntervalMs?: number
}

const connectTimeoutMs = 3000

/**
 * Opens the client for the layer's lifetime and closes it with the layer. Writes wait for a
 * majority of the replica set, and reads see only what a majority holds, so that an answer never
 * shows a write a failover could take back. A client whose server monitor stops answering is
 * replaced (see stuck-monitor.ts); the stores reach the client in use through the database given.
 */
export const mongoDatabaseLayer = (options: MongoOptions) =>
  Layer.effect(MongoDatabase)(
    Effect.acquireRelease(
      Effect.map(Effect.context<never>(), (context) =>
        replacingStuckClients(
          () =>
            new MongoClient(Redacted.value(options.uri), {
              serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 3000,
              connectTimeoutMS: connectTimeoutMs,
              writeConcern: { w: "majority" },
              readConcern: { level: "majority" },
              ignoreUndefined: true
            }),
          {
            database: options.database,
            connectTimeoutMs,
            onReplace: () =>
              Effect.runForkWith(context)(
                Effect.logWarning("MongoDB: the server monitor stopped answering; the client was replaced")
              )
          }
        )
      ),
      (clients) => Effect.promise(() => clients.close())
    ).pipe(Effect.map((clients) => clients.db))
  )
