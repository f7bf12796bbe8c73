import { Schema } from "effect"
import { PermissionId, RoleId, RolePermissionDetailId } from "./ids.ts"

/** The permissions of one role: exactly one record per role. */
export class RolePermissionDetail extends Schema.Class<RolePermissionDetail>("roster/RolePermissionDetail")({
  id: RolePermissionDetailId,
  roleId: RoleId,
  permissionIds: Schema.Array(PermissionId),
  updatedAt: Schema.DateTimeUtc
}) {}
