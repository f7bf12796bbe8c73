import { Effect, Option } from "effect"
import type { PermissionRef } from "../../model/permission.ts"
import {
  type CatalogPermission,
  grantablePermission,
  resolvePermission,
  rosterPermissionOf
} from "../../policy/permission-catalog.ts"

/**
 * The catalog's permissions `refs` name (an id or a key each, Roster's or the product's), in their
 * order, each distinct one resolved once; the first the catalog does not hold fails them all, so
 * that a typo is never answered as a denial. Roster's own are known at once: a question naming
 * only those (most of a product's first questions) asks the store nothing.
 */
export const permissionsNamed = (refs: ReadonlyArray<PermissionRef>) => {
  const resolved = new Map<PermissionRef, CatalogPermission>()
  const asked: Array<PermissionRef> = []
  for (const ref of refs) {
    if (resolved.has(ref)) continue
    const roster = rosterPermissionOf(ref)
    if (roster !== undefined) resolved.set(ref, roster)
    else if (!asked.includes(ref)) asked.push(ref)
  }
  const inOrder = () => refs.map((ref) => resolved.get(ref) as CatalogPermission)
  if (asked.length === 0) return Effect.sync(inOrder)
  return Effect.gen(function* () {
    for (const ref of asked) {
      const found = yield* resolvePermission(ref)
      resolved.set(ref, Option.isSome(found) ? found.value : yield* grantablePermission(ref))
    }
    return inOrder()
  })
}
