import { DateTime, Effect } from "effect"
import type { Principal } from "../../model/principal.ts"
import { toProductPermission } from "../../model/product-permission.ts"
import { requireOperator } from "../../policy/access.ts"
import { ProductPermissionStore } from "../../ports/product-permission-store.ts"

/**
 * Declares a product permission, or changes its description, idempotently (the master key alone):
 * the only way the catalog grows. Logged, not audited: it belongs to no organisation.
 */
export const declarePermission = Effect.fnUntraced(function* (
  actor: Principal,
  key: string,
  description: string
) {
  yield* requireOperator(actor)
  const record = yield* (yield* ProductPermissionStore).declare(key, description, yield* DateTime.now)
  yield* Effect.logInfo("product permission declared").pipe(
    Effect.annotateLogs({ permission: record.key, id: record.id })
  )
  return toProductPermission(record)
})
