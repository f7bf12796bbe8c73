import { PermissionId } from "./ids.ts"

export type PermissionSet = ReadonlySet<PermissionId>

/**
 * What a list holds for "every permission": the Owner role's record, a SCIM token made by a caller
 * holding every permission. A marker, not a list, so that a product permission declared later is
 * held too; it is no permission of the catalog (whose ids start at 1).
 */
export const everyPermission = PermissionId.make(0)

/**
 * Every permission (`but` aside): a set that holds any id asked about, and lists the marker and
 * `listed` (Roster's own, which who is an owner is decided by).
 */
export const everyPermissionSet = (listed: Iterable<PermissionId>, but?: PermissionId): PermissionSet => {
  const shown = new Set([everyPermission, ...listed].filter((id) => id !== but))
  return new (class extends Set<PermissionId> {
    override has(id: PermissionId) {
      return id !== but
    }
  })(shown)
}

/** A list as answered: the marker is how it is kept, never a permission to show. */
export const withoutMarker = (ids: ReadonlyArray<PermissionId>): ReadonlyArray<PermissionId> =>
  ids.includes(everyPermission) ? ids.filter((id) => id !== everyPermission) : ids

export const isSubsetOf = (subset: Iterable<PermissionId>, superset: PermissionSet): boolean => {
  for (const id of subset) if (!superset.has(id)) return false
  return true
}

export const withPermission = (set: PermissionSet, id: PermissionId): PermissionSet => new Set([...set, id])

export const withoutPermission = (set: PermissionSet, id: PermissionId): PermissionSet =>
  new Set([...set].filter((member) => member !== id))

/** Stable order for storage and responses. */
export const sortedPermissions = (set: Iterable<PermissionId>): Array<PermissionId> =>
  [...new Set(set)].sort((a, b) => a - b)
