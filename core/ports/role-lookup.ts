import { Context, type Effect, type Option } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { PermissionId, RoleId } from "../model/ids.ts"
import type { Role } from "../model/role.ts"

/** A role with what it holds, as stored now. */
export interface RoleWithPermissions {
  readonly role: Role
  /** None when the role has no permission record. */
  readonly permissionIds: ReadonlyArray<PermissionId>
}

/**
 * A role read together with its permissions, in as few reads as the store allows (one on SQLite):
 * a change to a role reads both, to hold it to the caller's ceiling.
 */
export class RoleLookup extends Context.Service<
  RoleLookup,
  {
    readonly find: (id: RoleId) => Effect.Effect<Option.Option<RoleWithPermissions>, StoreUnavailable>
  }
>()("roster/core/ports/RoleLookup") {}
