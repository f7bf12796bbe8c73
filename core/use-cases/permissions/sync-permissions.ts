import { Effect } from "effect"
import type { Principal } from "../../model/principal.ts"
import { declarePermission } from "../../steps/permissions/declare-permission.ts"

/**
 * Declares each of a list of product permissions (a file's, read at start or by `permissions
 * sync`), in order, idempotently. Keys missing from the list are kept: retiring is explicit.
 */
export const syncPermissions = Effect.fnUntraced(function* (
  actor: Principal,
  entries: ReadonlyArray<{ readonly key: string; readonly description?: string }>
) {
  return yield* Effect.forEach(entries, (entry) =>
    declarePermission(actor, entry.key, entry.description ?? "")
  )
})
