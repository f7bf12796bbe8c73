import { Context, type Effect, type Option } from "effect"
import type { DuplicateRoleKey, StoreUnavailable } from "../model/errors.ts"
import type { RoleId } from "../model/ids.ts"
import type { NewRole, Role } from "../model/role.ts"

export class RoleStore extends Context.Service<
  RoleStore,
  {
    /** Allocates the next integer id atomically (ids may skip, never repeat); roleKey is unique. */
    readonly insert: (role: NewRole) => Effect.Effect<Role, DuplicateRoleKey | StoreUnavailable>
    readonly findById: (id: RoleId) => Effect.Effect<Option.Option<Role>, StoreUnavailable>
    /** By id, ascending. */
    readonly list: Effect.Effect<ReadonlyArray<Role>, StoreUnavailable>
  }
>()("roster/core/ports/RoleStore") {}
