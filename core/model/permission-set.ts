import type { PermissionId } from "./ids.ts"

export type PermissionSet = ReadonlySet<PermissionId>

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
