import { Context, type DateTime, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { PermissionId, RoleId, RolePermissionDetailId } from "../model/ids.ts"
import type { RolePermissionDetail } from "../model/role-permission-detail.ts"

/** One record per role; every change is a single atomic set operation on that record. */
export class RolePermissionStore extends Context.Service<
  RolePermissionStore,
  {
    /**
     * Adds the permission, creating the role's record (with a newly allocated id) if needed; `audit`
     * makes the entry of the change, which is not made when the record already held it. None when
     * there is no such role (a record belongs to its role, and goes with it).
     */
    readonly grant: (
      roleId: RoleId,
      permissionId: PermissionId,
      at: DateTime.Utc,
      audit?: (detail: RolePermissionDetail) => AuditEntry
    ) => Effect.Effect<Option.Option<RolePermissionDetail>, StoreUnavailable>
    /**
     * Removes the permission from the record (its id and role as read) if present, recording `entry`
     * only then; none when there is no such record.
     */
    readonly revoke: (
      record: Pick<RolePermissionDetail, "id" | "roleId">,
      permissionId: PermissionId,
      at: DateTime.Utc,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<RolePermissionDetail>, StoreUnavailable>
    readonly findById: (
      id: RolePermissionDetailId
    ) => Effect.Effect<Option.Option<RolePermissionDetail>, StoreUnavailable>
    readonly findByRole: (
      roleId: RoleId
    ) => Effect.Effect<Option.Option<RolePermissionDetail>, StoreUnavailable>
    /** The roles whose record holds every one of `permissionIds`, by role id. */
    readonly rolesHolding: (
      permissionIds: ReadonlyArray<PermissionId>
    ) => Effect.Effect<ReadonlyArray<RoleId>, StoreUnavailable>
    /** Deletes every record of the organisation (it is being deleted). */
    readonly removeAll: Effect.Effect<void, StoreUnavailable>
    /** Deletes the role's record, if it has one: it goes with the role. */
    readonly removeOfRole: (roleId: RoleId) => Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/RolePermissionStore") {}
