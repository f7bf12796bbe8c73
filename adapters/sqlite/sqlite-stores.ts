import { Layer } from "effect"
import type { StorePorts } from "../../core/index.ts"
import { declaredStores } from "../resources/declared.ts"
import { auditLogLayer } from "./audit-log.ts"
import { type SqliteOptions, sqliteDatabaseLayer } from "./database.ts"
import { eventSourceLayer } from "./event-source.ts"
import { sqliteKitLayer } from "./kit.ts"
import { loginThrottleStoreLayer } from "./login-throttle-store.ts"
import { memberStoreLayer } from "./member-store.ts"
import { roleLookupLayer } from "./role-lookup.ts"
import { rolePermissionStoreLayer } from "./role-permission-store.ts"
import { roleStoreLayer } from "./role-store.ts"
import { sessionLookupLayer } from "./session-lookup.ts"
import { storeHealthLayer } from "./store-health.ts"

/**
 * Every store port on one SQLite file, its schema migrated before the first request; the file is
 * closed with the layer. Each call is a store of its own (fresh), like `mongoStores`.
 */
export const sqliteStores = (options: SqliteOptions) =>
  Layer.fresh(
    Layer.mergeAll(
      memberStoreLayer,
      declaredStores.pipe(Layer.provide(sqliteKitLayer)),
      roleStoreLayer,
      roleLookupLayer,
      rolePermissionStoreLayer,
      sessionLookupLayer,
      loginThrottleStoreLayer,
      storeHealthLayer,
      auditLogLayer,
      eventSourceLayer
    ).pipe(Layer.provide(sqliteDatabaseLayer(options)))
  ) satisfies Layer.Layer<StorePorts, unknown, unknown>
