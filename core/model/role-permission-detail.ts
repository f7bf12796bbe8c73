import { Schema } from "effect"
import { PermissionId, RoleId, RolePermissionDetailId } from "./ids.ts"
import { everyPermission, withoutMarker } from "./permission-set.ts"

/** The permissions of one role: exactly one record per role. */
export class RolePermissionDetail extends Schema.Class<RolePermissionDetail>("roster/RolePermissionDetail")({
  id: RolePermissionDetailId,
  roleId: RoleId,
  permissionIds: Schema.Array(PermissionId),
  updatedAt: Schema.DateTimeUtc
}) {}

/** A record as answered: without the marker of every permission the Owner role's keeps. */
export const shownDetail = (detail: RolePermissionDetail): RolePermissionDetail =>
  detail.permissionIds.includes(everyPermission)
    ? new RolePermissionDetail({ ...detail, permissionIds: withoutMarker(detail.permissionIds) })
    : detail
