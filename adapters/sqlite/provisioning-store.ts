import { Effect, Layer } from "effect"
import {
  DuplicateUsername,
  GroupProfile,
  inOrganization,
  ProvisioningStore,
  provisionedUserNameKey,
  UserProfile
} from "../../core/index.ts"
import type { Row } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { jsonColumn, optionalRow, text } from "./values.ts"

const userJson = jsonColumn(UserProfile)
const groupJson = jsonColumn(GroupProfile)
const toUser = (row: Row) => userJson.decode(text(row.profile))
const toGroup = (row: Row) => groupJson.decode(text(row.profile))

/** Profiles, each whole as JSON; `user_name_key` is unique in an organisation. */
export const makeProvisioningStore = Effect.gen(function* () {
  const { read, transaction, write } = yield* SqliteDatabase
  return ProvisioningStore.of({
    users: inOrganization((organizationId) =>
      read((db) =>
        db.all("SELECT profile FROM user_profiles WHERE organization_id = ?", organizationId).map(toUser)
      )
    ),
    findUser: (memberId) =>
      inOrganization((organizationId) =>
        read((db) =>
          optionalRow(
            db.get(
              "SELECT profile FROM user_profiles WHERE organization_id = ? AND member_id = ?",
              organizationId,
              memberId
            ),
            toUser
          )
        )
      ),
    findUserByUserName: (userName) =>
      inOrganization((organizationId) =>
        read((db) =>
          optionalRow(
            db.get(
              "SELECT profile FROM user_profiles WHERE organization_id = ? AND user_name_key = ?",
              organizationId,
              provisionedUserNameKey(userName)
            ),
            toUser
          )
        )
      ),
    putUser: (profile) =>
      inOrganization((organizationId) =>
        transaction((db) => {
          db.run(
            `INSERT INTO user_profiles (organization_id, member_id, user_name_key, profile) VALUES (?, ?, ?, ?)
             ON CONFLICT (organization_id, member_id)
             DO UPDATE SET user_name_key = excluded.user_name_key, profile = excluded.profile`,
            organizationId,
            profile.memberId,
            provisionedUserNameKey(profile.userName),
            userJson.encode(profile)
          )
        })
      ).pipe(
        Effect.catchTag("UniqueViolation", () =>
          Effect.fail(new DuplicateUsername({ username: profile.userName }))
        )
      ),
    removeUser: (memberId) =>
      inOrganization((organizationId) =>
        write((db) => {
          db.run(
            "DELETE FROM user_profiles WHERE organization_id = ? AND member_id = ?",
            organizationId,
            memberId
          )
        })
      ),
    groups: inOrganization((organizationId) =>
      read((db) =>
        db.all("SELECT profile FROM group_profiles WHERE organization_id = ?", organizationId).map(toGroup)
      )
    ),
    findGroup: (roleId) =>
      inOrganization((organizationId) =>
        read((db) =>
          optionalRow(
            db.get(
              "SELECT profile FROM group_profiles WHERE organization_id = ? AND role_id = ?",
              organizationId,
              roleId
            ),
            toGroup
          )
        )
      ),
    putGroup: (profile) =>
      inOrganization((organizationId) =>
        write((db) => {
          db.run(
            `INSERT INTO group_profiles (organization_id, role_id, profile) VALUES (?, ?, ?)
             ON CONFLICT (organization_id, role_id) DO UPDATE SET profile = excluded.profile`,
            organizationId,
            profile.roleId,
            groupJson.encode(profile)
          )
        })
      ),
    removeGroup: (roleId) =>
      inOrganization((organizationId) =>
        write((db) => {
          db.run(
            "DELETE FROM group_profiles WHERE organization_id = ? AND role_id = ?",
            organizationId,
            roleId
          )
        })
      ),
    removeAll: inOrganization((organizationId) =>
      write((db) => {
        db.run("DELETE FROM user_profiles WHERE organization_id = ?", organizationId)
        db.run("DELETE FROM group_profiles WHERE organization_id = ?", organizationId)
      })
    )
  })
})

export const provisioningStoreLayer = Layer.effect(ProvisioningStore, makeProvisioningStore)
