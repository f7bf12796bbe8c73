import { Effect } from "effect"
import type { ApiKeyRecord } from "../../model/api-key.ts"
import { Forbidden, NotFound } from "../../model/errors.ts"
import type { ApiKeyId } from "../../model/ids.ts"
import type { PermissionRef } from "../../model/permission.ts"
import { isSubsetOf, sortedPermissions } from "../../model/permission-set.ts"
import type { Principal } from "../../model/principal.ts"
import { permissionsOf, requirePermission } from "../../policy/access.ts"
import { grantablePermissionIds } from "../../policy/permission-catalog.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"

/**
 * The permissions a caller names for a key (by id or by key), sorted: each declared in the catalog
 * (Roster's or the product's), and each held by the caller, so that no key is ever more than
 * whoever made or changed it.
 */
export const keyPermissions = Effect.fnUntraced(function* (
  actor: Principal,
  named: ReadonlyArray<PermissionRef>
) {
  const ids = new Set(yield* grantablePermissionIds(named))
  const held = permissionsOf(actor)
  const beyond = sortedPermissions([...ids].filter((id) => !held.has(id)))
  if (beyond.length > 0) return yield* new Forbidden({ reason: "grant_exceeds_own", permissionIds: beyond })
  return sortedPermissions(ids)
})

/**
 * A key of the organisation the caller may change, rotate or revoke: not the one it authenticates
 * with, and holding nothing the caller lacks (the ceiling, as for roles), so that nobody takes a
 * key's secret, or its power, above their own.
 */
export const changeableKey = Effect.fnUntraced(function* (actor: Principal, id: ApiKeyId) {
  yield* requirePermission(actor, "organization.api_keys.write")
  if (actor._tag === "ApiKey" && actor.keyId === id) return yield* new Forbidden({ reason: "own_key" })
  const found = yield* (yield* ApiKeyStore).find(id)
  if (found._tag === "None") return yield* new NotFound({ entity: "api_key", id })
  const key: ApiKeyRecord = found.value
  if (!isSubsetOf(key.permissions, permissionsOf(actor))) {
    return yield* new Forbidden({ reason: "key_exceeds_own", permissionIds: key.permissions })
  }
  return key
})
