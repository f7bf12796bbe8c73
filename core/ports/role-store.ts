import { Context, type Effect, type Option } from "effect"
import type { DuplicateRoleKey, StoreUnavailable } from "../model/errors.ts"
import type { RoleId } from "../model/ids.ts"
import type { NewRole, Role, RoleChanges } from "../model/role.ts"

export class RoleStore extends Context.Service<
  RoleStore,
  {
    /** Allocates the next integer id atomically (ids may skip, never repeat); roleKey is unique. */
    readonly insert: (role: NewRole) => Effect.Effect<Role, DuplicateRoleKey | StoreUnavailable>
    readonly findById: (id: RoleId) => Effect.Effect<Option.Option<Role>, StoreUnavailable>
    /** Sets `changes` in one atomic write; none when there is no such role. roleKey stays unique. */
    readonly update: (
      id: RoleId,
      changes: RoleChanges
    ) => Effect.Effect<Option.Option<Role>, DuplicateRoleKey | StoreUnavailable>
    /** By id, ascending. */
    readonly list: Effect.Effect<ReadonlyArray<Role>, StoreUnavailable>
  }
>()("roster/core/ports/RoleStore") {}
