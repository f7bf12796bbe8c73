import { Effect, Layer } from "effect"
import type { StorePorts } from "../../core/index.ts"
import { declaredStores } from "../resources/declared.ts"
import { auditLogLayer } from "./audit-log.ts"
import {
  relayAtStart,
  relayingWhatTheyWrite,
  repairAtStart,
  repairWhileRunning
} from "./consistency/index.ts"
import { MongoDatabase, type MongoOptions, mongoDatabaseLayer } from "./database.ts"
import { ensureIndexes } from "./indexes.ts"
import { mongoKitLayer } from "./kit.ts"
import { loginThrottleStoreLayer } from "./login-throttle-store.ts"
import { memberStoreLayer } from "./member-store.ts"
import { extendOwnersToCatalog } from "./migrations/catalog-permissions.ts"
import { recordConnectionTrust } from "./migrations/connection-trust.ts"
import { moveIntoDefaultOrganization } from "./migrations/default-organization.ts"
import { moveMfaIntoItsCollection } from "./migrations/mfa-factors.ts"
import { recordRoleDeactivations } from "./migrations/role-deactivations.ts"
import { moveRoleRecordsIntoRoles } from "./migrations/role-records.ts"
import { completeSessions } from "./migrations/session-fields.ts"
import { splitAccounts } from "./migrations/split-accounts.ts"
import { roleLookupLayer } from "./role-lookup.ts"
import { rolePermissionStoreLayer } from "./role-permission-store.ts"
import { roleStoreLayer } from "./role-store.ts"
import { sessionLookupLayer } from "./session-lookup.ts"
import { storeHealthLayer } from "./store-health.ts"

// Said once per process: a server without TTL indexes lacks them for every database it serves.
let warnedWithoutTtl = false

const indexesLayer = Layer.effectDiscard(
  MongoDatabase.use((db) =>
    moveIntoDefaultOrganization(db).pipe(
      Effect.andThen(splitAccounts(db)),
      Effect.andThen(relayAtStart(db)),
      Effect.andThen(moveMfaIntoItsCollection(db)),
      Effect.andThen(moveRoleRecordsIntoRoles(db)),
      Effect.andThen(recordRoleDeactivations(db)),
      Effect.andThen(extendOwnersToCatalog(db)),
      Effect.andThen(recordConnectionTrust(db)),
      Effect.andThen(completeSessions(db)),
      Effect.andThen(repairAtStart(db)),
      Effect.andThen(ensureIndexes(db))
    )
  ).pipe(
    Effect.tap((withoutTtl) => {
      if (withoutTtl.length === 0 || warnedWithoutTtl) return Effect.void
      warnedWithoutTtl = true
      return Effect.logWarning(
        `The database has no TTL indexes; expired entries of ${withoutTtl.join(", ")} stay stored`
      )
    })
  )
)

/** What stopped processes leave, repaired while this one runs (see `repairWhileRunning`). */
const abandonedFencesLayer = Layer.effectDiscard(MongoDatabase.use(repairWhileRunning))

/** Every store port as each writes, with the lookups over them and the relay of their entries. */
const writingStores = (options: MongoOptions) =>
  Layer.mergeAll(
    memberStoreLayer,
    declaredStores.pipe(Layer.provide(mongoKitLayer)),
    roleStoreLayer,
    rolePermissionStoreLayer,
    loginThrottleStoreLayer,
    storeHealthLayer,
    auditLogLayer(options)
  ).pipe((stores) => Layer.provideMerge(Layer.merge(sessionLookupLayer, roleLookupLayer), stores))

/** `stores` on the database, prepared: indexes ensured, fences a dead write left taken down. */
const onTheDatabase = <ROut, E>(stores: Layer.Layer<ROut, E, MongoDatabase>, options: MongoOptions) =>
  Layer.fresh(
    stores.pipe(
      Layer.provideMerge(indexesLayer),
      Layer.provideMerge(abandonedFencesLayer),
      Layer.provide(mongoDatabaseLayer(options))
    )
  )

/**
 * Every store port on MongoDB, indexes ensured before the first request; the client closes with the
 * layer. Each call is a store of its own (fresh): two in one application (two databases, or two
 * instances in a test) never share a store, nor the start that prepares its database. Each store
 * relays the audit entries it writes (see `relayingWhatTheyWrite`).
 */
export const mongoStores = (options: MongoOptions) =>
  onTheDatabase(relayingWhatTheyWrite(writingStores(options)), options) satisfies Layer.Layer<
    StorePorts,
    unknown,
    unknown
  >

/**
 * The stores of a process that stops between its writes and their relay: what they write stays
 * pending on its documents, for the next start to move. For the tests of that recovery.
 */
export const mongoStoresStoppedBeforeRelaying = (options: MongoOptions) =>
  onTheDatabase(writingStores(options), options)
