import { Effect, Option } from "effect"
import { NotFound, PermissionInUse } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { toProductPermission } from "../../model/product-permission.ts"
import { requireOperator } from "../../policy/access.ts"
import { ProductPermissionStore } from "../../ports/product-permission-store.ts"
import { permissionHolders } from "../../steps/permissions/permission-holders.ts"

/**
 * Retires a product permission no explicit grant holds (the master key alone). It is marked
 * retiring first, so that no grant made while its holders are counted slips through (grants read
 * its state from the store); then retired, or declared again with 409 `permission_in_use`.
 */
export const retirePermission = Effect.fnUntraced(function* (actor: Principal, key: string) {
  yield* requireOperator(actor)
  const store = yield* ProductPermissionStore
  const retiring = yield* store.move(key, "declared", "retiring")
  if (Option.isNone(retiring)) return yield* new NotFound({ entity: "permission", id: key })
  const holders = yield* permissionHolders(retiring.value.id)
  if (holders.roles + holders.apiKeys + holders.scimTokens > 0) {
    yield* store.move(key, "retiring", "declared")
    return yield* new PermissionInUse({ key, holders })
  }
  const retired = yield* store.move(key, "retiring", "retired")
  yield* Effect.logInfo("product permission retired").pipe(Effect.annotateLogs({ permission: key }))
  return toProductPermission(Option.getOrElse(retired, () => retiring.value))
})
