import { Context, type Effect, type Option } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { PermissionId, RoleId, RolePermissionDetailId } from "../model/ids.ts"
import type { Role } from "../model/role.ts"

/** A role with what it holds, as stored now. */
export interface RoleWithPermissions {
  readonly role: Role
  /** Sorted; none when the role has no permission record. */
  readonly permissionIds: ReadonlyArray<PermissionId>
  /** The id of its permission record; absent until something is first granted to the role. */
  readonly recordId?: RolePermissionDetailId
}

/**
 * A role read together with its permissions, in as few reads as the store allows (one on SQLite and
 * MongoDB): a change to a role reads both, to hold it to the caller's ceiling, and the API answers a
 * role with what it holds.
 */
export class RoleLookup extends Context.Service<
  RoleLookup,
  {
    readonly find: (id: RoleId) => Effect.Effect<Option.Option<RoleWithPermissions>, StoreUnavailable>
    /** At most `limit` roles by id, ascending, after the role `after` when given, each with what it holds. */
    readonly page: (
      after: RoleId | undefined,
      limit: number
    ) => Effect.Effect<ReadonlyArray<RoleWithPermissions>, StoreUnavailable>
  }
>()("roster/core/ports/RoleLookup") {}
