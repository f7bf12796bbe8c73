import { Layer } from "effect"
import type { StorePorts } from "../../core/index.ts"
import { declaredStores } from "../resources/declared.ts"
import { auditLogLayer, auditTrailLayer } from "./audit-log.ts"
import { eventSourceLayer } from "./event-source.ts"
import { memoryKitLayer } from "./kit.ts"
import { loginThrottleStoreLayer } from "./login-throttle-store.ts"
import { memberStoreLayer } from "./member-store.ts"
import { roleHoldersLayer } from "./role-holders.ts"
import { composedRoleLookupLayer } from "./role-lookup.ts"
import { rolePermissionStoreLayer } from "./role-permission-store.ts"
import { roleStoreLayer } from "./role-store.ts"
import { composedSessionLookupLayer } from "./session-lookup.ts"
import { storeHealthLayer } from "./store-health.ts"

/** Every store port in process memory: fresh, empty state each time the layer is built. */
export const MemoryStores = Layer.mergeAll(
  memberStoreLayer,
  declaredStores.pipe(Layer.provide(memoryKitLayer)),
  // A record is granted only to a role the role store holds.
  Layer.provideMerge(rolePermissionStoreLayer, roleStoreLayer),
  loginThrottleStoreLayer,
  storeHealthLayer,
  auditLogLayer,
  eventSourceLayer
).pipe(Layer.provide([auditTrailLayer, roleHoldersLayer]), (stores) =>
  Layer.provideMerge(composedSessionLookupLayer.pipe(Layer.provideMerge(composedRoleLookupLayer)), stores)
) satisfies Layer.Layer<StorePorts, unknown, unknown>
