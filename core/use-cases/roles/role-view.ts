import { RoleView } from "../../model/role.ts"
import type { RoleWithPermissions } from "../../ports/role-lookup.ts"

/** A role as the API answers it, from the role and what it holds as read together. */
export const roleView = ({ role, permissionIds, recordId }: RoleWithPermissions) =>
  new RoleView({ ...role, permissionIds, recordId: recordId ?? null }, { disableChecks: true })
