import { Context, type Effect, type Option } from "effect"
import type { DuplicateUsername, StoreUnavailable } from "../model/errors.ts"
import type { MemberId, RoleId } from "../model/ids.ts"
import type { GroupProfile, UserProfile } from "../model/provisioning.ts"

/**
 * What identity providers keep on the current organisation's members and roles beyond Roster's own
 * fields (see `UserProfile`, `GroupProfile`). A profile's `userName` is unique in the organisation
 * by `provisionedUserNameKey`, enforced by the store whatever the number of instances.
 */
export class ProvisioningStore extends Context.Service<
  ProvisioningStore,
  {
    readonly users: Effect.Effect<ReadonlyArray<UserProfile>, StoreUnavailable>
    readonly findUser: (memberId: MemberId) => Effect.Effect<Option.Option<UserProfile>, StoreUnavailable>
    readonly findUserByUserName: (
      userName: string
    ) => Effect.Effect<Option.Option<UserProfile>, StoreUnavailable>
    /** Stores the member's profile in place of the one it had, if any. */
    readonly putUser: (profile: UserProfile) => Effect.Effect<void, DuplicateUsername | StoreUnavailable>
    readonly removeUser: (memberId: MemberId) => Effect.Effect<void, StoreUnavailable>
    readonly groups: Effect.Effect<ReadonlyArray<GroupProfile>, StoreUnavailable>
    readonly findGroup: (roleId: RoleId) => Effect.Effect<Option.Option<GroupProfile>, StoreUnavailable>
    readonly putGroup: (profile: GroupProfile) => Effect.Effect<void, StoreUnavailable>
    readonly removeGroup: (roleId: RoleId) => Effect.Effect<void, StoreUnavailable>
    /** Deletes every profile of the organisation (it is being deleted). */
    readonly removeAll: Effect.Effect<void, StoreUnavailable>
  }
>()("roster/core/ports/ProvisioningStore") {}
