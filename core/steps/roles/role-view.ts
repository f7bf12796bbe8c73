import { assembled } from "../../model/assembled.ts"
import { withoutMarker } from "../../model/permission-set.ts"
import { RoleView } from "../../model/role.ts"
import type { RoleWithPermissions } from "../../ports/role-lookup.ts"

/**
 * Each role's view, made once: a store hands every request the same role, with what it holds, while
 * they are unchanged, and a view is never changed in place.
 */
const views = new WeakMap<RoleWithPermissions, RoleView>()

/** A role as the API answers it, from the role and what it holds as read together. */
export const roleView = (read: RoleWithPermissions): RoleView => {
  const made = views.get(read)
  if (made !== undefined) return made
  const { role, permissionIds, recordId } = read
  const view = assembled(RoleView, {
    ...role,
    permissionIds: withoutMarker(permissionIds),
    recordId: recordId ?? null
  })
  views.set(read, view)
  return view
}
