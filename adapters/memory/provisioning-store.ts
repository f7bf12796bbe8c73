import { Effect, Layer, Option } from "effect"
import {
  DuplicateUsername,
  type GroupProfile,
  inOrganization,
  ProvisioningStore,
  provisionedUserNameKey,
  syncInOrganization,
  type UserProfile
} from "../../core/index.ts"

/** Profiles by organisation, then by member or role id. */
const scoped = <V>() => {
  const byOrganization = new Map<string, Map<string, V>>()
  return (organizationId: string) => {
    let found = byOrganization.get(organizationId)
    if (found === undefined) {
      found = new Map()
      byOrganization.set(organizationId, found)
    }
    return found
  }
}

export const makeProvisioningStore = Effect.sync(() => {
  const users = scoped<UserProfile>()
  const groups = scoped<GroupProfile>()
  const byUserName = (organizationId: string, userName: string) => {
    const key = provisionedUserNameKey(userName)
    return [...users(organizationId).values()].find((p) => provisionedUserNameKey(p.userName) === key)
  }

  return ProvisioningStore.of({
    users: syncInOrganization((organizationId) => [...users(organizationId).values()]),
    findUser: (memberId) => syncInOrganization((o) => Option.fromNullishOr(users(o).get(memberId))),
    findUserByUserName: (userName) =>
      syncInOrganization((o) => Option.fromNullishOr(byUserName(o, userName))),
    putUser: (profile) =>
      inOrganization((organizationId) => {
        const holder = byUserName(organizationId, profile.userName)
        if (holder !== undefined && holder.memberId !== profile.memberId) {
          return Effect.fail(new DuplicateUsername({ username: profile.userName }))
        }
        users(organizationId).set(profile.memberId, profile)
        return Effect.void
      }),
    removeUser: (memberId) =>
      syncInOrganization((organizationId) => {
        users(organizationId).delete(memberId)
      }),
    groups: syncInOrganization((organizationId) => [...groups(organizationId).values()]),
    findGroup: (roleId) => syncInOrganization((o) => Option.fromNullishOr(groups(o).get(String(roleId)))),
    putGroup: (profile) =>
      syncInOrganization((organizationId) => {
        groups(organizationId).set(String(profile.roleId), profile)
      }),
    removeGroup: (roleId) =>
      syncInOrganization((organizationId) => {
        groups(organizationId).delete(String(roleId))
      }),
    removeAll: syncInOrganization((organizationId) => {
      users(organizationId).clear()
      groups(organizationId).clear()
    })
  })
})

export const provisioningStoreLayer = Layer.effect(ProvisioningStore, makeProvisioningStore)
