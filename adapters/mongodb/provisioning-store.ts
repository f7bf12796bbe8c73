import { Effect, Layer, Schema } from "effect"
import {
  DuplicateUsername,
  GroupProfile,
  inOrganization,
  type MemberId,
  ProvisioningStore,
  provisionedUserNameKey,
  type RoleId,
  UserProfile
} from "../../core/index.ts"
import { MongoDatabase } from "./database.ts"
import { attemptWrite, query, queryWrite } from "./driver.ts"
import { decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"

/** A member's profile, keyed by organisation and member; `userNameKey` is unique in an organisation. */
const UserProfileDocument = Schema.Struct({
  _id: Schema.String,
  organizationId: Schema.String,
  userNameKey: Schema.String,
  profile: Schema.toCodecJson(UserProfile)
})
type UserProfileDocument = typeof UserProfileDocument.Encoded

/** A role's profile, keyed by organisation and role. */
const GroupProfileDocument = Schema.Struct({
  _id: Schema.String,
  organizationId: Schema.String,
  profile: Schema.toCodecJson(GroupProfile)
})
type GroupProfileDocument = typeof GroupProfileDocument.Encoded

const encodeUser = encodeDocument(UserProfileDocument)
const decodeUser = (document: unknown) =>
  Effect.map(decodeDocument(UserProfileDocument)(document), (d) => d.profile)
const encodeGroup = encodeDocument(GroupProfileDocument)
const decodeGroup = (document: unknown) =>
  Effect.map(decodeDocument(GroupProfileDocument)(document), (d) => d.profile)

const userKey = (organizationId: string, memberId: MemberId) => `${organizationId}/${memberId}`
const groupKey = (organizationId: string, roleId: RoleId) => `${organizationId}/${roleId}`

export const makeProvisioningStore = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const users = db.collection<UserProfileDocument>("user_profiles")
  const groups = db.collection<GroupProfileDocument>("group_profiles")
  return ProvisioningStore.of({
    users: inOrganization((organizationId) => query(() => users.find({ organizationId }).toArray())).pipe(
      Effect.flatMap((documents) => Effect.forEach(documents, decodeUser))
    ),
    findUser: (memberId) =>
      inOrganization((organizationId) =>
        query(() => users.findOne({ _id: userKey(organizationId, memberId) }))
      ).pipe(Effect.flatMap(optionally(decodeUser))),
    findUserByUserName: (userName) =>
      inOrganization((organizationId) =>
        query(() => users.findOne({ organizationId, userNameKey: provisionedUserNameKey(userName) }))
      ).pipe(Effect.flatMap(optionally(decodeUser))),
    putUser: (profile) =>
      inOrganization((organizationId) => {
        const document = encodeUser({
          _id: userKey(organizationId, profile.memberId),
          organizationId,
          userNameKey: provisionedUserNameKey(profile.userName),
          profile
        })
        return attemptWrite(() => users.replaceOne({ _id: document._id }, document, { upsert: true }))
      }).pipe(
        Effect.catchTag("DuplicateKey", () =>
          Effect.fail(new DuplicateUsername({ username: profile.userName }))
        ),
        Effect.asVoid
      ),
    removeUser: (memberId) =>
      inOrganization((organizationId) =>
        queryWrite(() => users.deleteOne({ _id: userKey(organizationId, memberId) }))
      ).pipe(Effect.asVoid),
    groups: inOrganization((organizationId) => query(() => groups.find({ organizationId }).toArray())).pipe(
      Effect.flatMap((documents) => Effect.forEach(documents, decodeGroup))
    ),
    findGroup: (roleId) =>
      inOrganization((organizationId) =>
        query(() => groups.findOne({ _id: groupKey(organizationId, roleId) }))
      ).pipe(Effect.flatMap(optionally(decodeGroup))),
    putGroup: (profile) =>
      inOrganization((organizationId) => {
        const document = encodeGroup({
          _id: groupKey(organizationId, profile.roleId),
          organizationId,
          profile
        })
        return queryWrite(() => groups.replaceOne({ _id: document._id }, document, { upsert: true }))
      }).pipe(Effect.asVoid),
    removeGroup: (roleId) =>
      inOrganization((organizationId) =>
        queryWrite(() => groups.deleteOne({ _id: groupKey(organizationId, roleId) }))
      ).pipe(Effect.asVoid),
    removeAll: inOrganization((organizationId) =>
      queryWrite(() => users.deleteMany({ organizationId })).pipe(
        Effect.andThen(queryWrite(() => groups.deleteMany({ organizationId })))
      )
    ).pipe(Effect.asVoid)
  })
})

export const provisioningStoreLayer = Layer.effect(ProvisioningStore, makeProvisioningStore)
