import { Effect, Layer } from "effect"
import { declaredStores } from "../resources/declared.ts"
import { auditLogLayer } from "./audit-log.ts"
import { type PostgresOptions, postgresConfig, postgresDatabaseLayer } from "./database.ts"
import { postgresKitLayer } from "./kit.ts"

/**
 * The ports PostgreSQL serves so far: every declared resource's store, on the kit, and the audit
 * record their writes append to, on one pool, migrated at start; closed with the layer. Each call
 * is a store of its own (fresh), like `sqliteStores`. The hand-written ports (members, roles,
 * the login throttle…) have no PostgreSQL store yet, so the service cannot run on it whole.
 */
export const postgresKitStores = (options: PostgresOptions) =>
  Layer.fresh(
    Layer.mergeAll(declaredStores.pipe(Layer.provide(postgresKitLayer)), auditLogLayer).pipe(
      Layer.provide(postgresDatabaseLayer(options))
    )
  )

/** The same, on the database `DATABASE_URL` names. */
export const postgresKitStoresFromConfig = Layer.unwrap(
  Effect.gen(function* () {
    return postgresKitStores(yield* postgresConfig)
  })
)
