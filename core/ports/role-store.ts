import { Context, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { DuplicateRoleKey, RoleInUse, StoreUnavailable } from "../model/errors.ts"
import type { RoleId } from "../model/ids.ts"
import type { NewRole, Role, RoleUpdate } from "../model/role.ts"

export class RoleStore extends Context.Service<
  RoleStore,
  {
    /**
     * Allocates the next integer id atomically (ids may skip, never repeat); roleKey is unique.
     * `audit` makes the entry recording the creation, once the id is known.
     */
    readonly insert: (
      role: NewRole,
      audit?: (created: Role) => AuditEntry
    ) => Effect.Effect<Role, DuplicateRoleKey | StoreUnavailable>
    readonly findById: (id: RoleId) => Effect.Effect<Option.Option<Role>, StoreUnavailable>
    /** Sets `changes` in one atomic write; none when there is no such role. roleKey stays unique. */
    readonly update: (
      id: RoleId,
      changes: RoleUpdate,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<Role>, DuplicateRoleKey | StoreUnavailable>
    /**
     * Deletes the role in one atomic write unless a member holds it (`RoleInUse`), also one being
     * written by `MemberStore` at that moment; none when there is no such role.
     */
    readonly remove: (
      id: RoleId,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<Role>, RoleInUse | StoreUnavailable>
    /** Deletes every role of the organisation (it is being deleted), held or not. */
    readonly removeAll: Effect.Effect<void, StoreUnavailable>
    /** At most `limit` roles by id, ascending, starting after the role `after` when given. */
    readonly page: (
      after: RoleId | undefined,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Role>, StoreUnavailable>
  }
>()("roster/core/ports/RoleStore") {}
