import { Effect, Option } from "effect"
import type { PermissionRef } from "../../model/permission.ts"
import {
  type CatalogPermission,
  grantablePermission,
  resolvePermission
} from "../../policy/permission-catalog.ts"

/**
 * The catalog's permissions `refs` name (an id or a key each, Roster's or the product's), in their
 * order, each distinct one resolved once; the first the catalog does not hold fails them all, so
 * that a typo is never answered as a denial.
 */
export const permissionsNamed = (refs: ReadonlyArray<PermissionRef>) =>
  Effect.gen(function* () {
    const resolved = new Map<PermissionRef, CatalogPermission>()
    for (const ref of refs) {
      if (resolved.has(ref)) continue
      const found = yield* resolvePermission(ref)
      resolved.set(ref, Option.isSome(found) ? found.value : yield* grantablePermission(ref))
    }
    return refs.map((ref) => resolved.get(ref) as CatalogPermission)
  })
