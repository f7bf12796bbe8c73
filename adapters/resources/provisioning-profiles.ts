import { Effect, Layer, Option, Schema } from "effect"
import {
  DuplicateUsername,
  GroupProfile,
  inOrganization,
  ProvisioningStore,
  provisionedUserNameKey,
  UserProfile
} from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"

/** A profile's id: its organisation and its member's or role's id, as MongoDB always keyed it. */
const idOf = (organizationId: string, id: string | number) => `${organizationId}/${id}`

/**
 * Members' profiles, kept beside the organisation they belong to and the key of their `userName`,
 * which no two share in an organisation (the store holds that, whatever the number of instances).
 */
export const userProfiles = resource({
  name: "user_profiles",
  schema: Schema.Struct({
    id: Schema.String,
    organizationId: Schema.String,
    userNameKey: Schema.String,
    profile: UserProfile
  }),
  key: "id",
  columns: ["id", "organizationId", "userNameKey"],
  unique: [["organizationId", "userNameKey"]]
})

/** Roles' profiles, by organisation. */
export const groupProfiles = resource({
  name: "group_profiles",
  schema: Schema.Struct({ id: Schema.String, organizationId: Schema.String, profile: GroupProfile }),
  key: "id",
  columns: ["id", "organizationId"],
  indexes: [["organizationId"]]
})

const byKey = { by: [] } as const
const profileOf = <P>(found: Option.Option<{ readonly profile: P }>) =>
  Option.map(found, (kept) => kept.profile)

export const provisioningStoreLayer = Layer.effect(
  ProvisioningStore,
  Effect.gen(function* () {
    const kit = yield* RecordKit
    const users = yield* kit.open(userProfiles)
    const groups = yield* kit.open(groupProfiles)
    return ProvisioningStore.of({
      users: inOrganization((organizationId) => users.list({ organizationId }, byKey)).pipe(
        Effect.map((found) => found.map((kept) => kept.profile))
      ),
      findUser: (memberId) =>
        inOrganization((organizationId) => users.find({ id: idOf(organizationId, memberId) })).pipe(
          Effect.map(profileOf)
        ),
      findUserByUserName: (userName) =>
        inOrganization((organizationId) =>
          users.find({ organizationId, userNameKey: provisionedUserNameKey(userName) })
        ).pipe(Effect.map(profileOf)),
      putUser: (profile) =>
        inOrganization((organizationId) =>
          users.put({
            id: idOf(organizationId, profile.memberId),
            organizationId,
            userNameKey: provisionedUserNameKey(profile.userName),
            profile
          })
        ).pipe(
          Effect.catchTag("Taken", () => Effect.fail(new DuplicateUsername({ username: profile.userName })))
        ),
      removeUser: (memberId) =>
        inOrganization((organizationId) => users.remove({ id: idOf(organizationId, memberId) })).pipe(
          Effect.asVoid
        ),
      groups: inOrganization((organizationId) => groups.list({ organizationId }, byKey)).pipe(
        Effect.map((found) => found.map((kept) => kept.profile))
      ),
      findGroup: (roleId) =>
        inOrganization((organizationId) => groups.find({ id: idOf(organizationId, roleId) })).pipe(
          Effect.map(profileOf)
        ),
      putGroup: (profile) =>
        inOrganization((organizationId) =>
          refusalIsDefect(groups.put({ id: idOf(organizationId, profile.roleId), organizationId, profile }))
        ),
      removeGroup: (roleId) =>
        inOrganization((organizationId) => groups.remove({ id: idOf(organizationId, roleId) })).pipe(
          Effect.asVoid
        ),
      removeAll: inOrganization((organizationId) =>
        Effect.andThen(users.removeAll({ organizationId }), groups.removeAll({ organizationId }))
      )
    })
  })
)
