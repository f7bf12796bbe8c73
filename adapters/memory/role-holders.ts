import { Context, Layer } from "effect"
import type { OrganizationId, RoleId } from "../../core/index.ts"

/**
 * Which organisation each role is of and how many members hold it, shared by the role and member
 * stores: a member is written only into a role that is there, and a role deleted only while nobody
 * holds it, each in one synchronous step.
 */
export class MemoryRoleHolders extends Context.Service<
  MemoryRoleHolders,
  {
    readonly add: (organizationId: OrganizationId, roleId: RoleId) => void
    readonly organizationOf: (roleId: RoleId) => OrganizationId | undefined
    /** Counts one more holder of the role when it is the organisation's; false when it is not. */
    readonly hold: (organizationId: OrganizationId, roleId: RoleId) => boolean
    readonly release: (roleId: RoleId) => void
    /** Forgets the role unless it is held; false when it is. */
    readonly removeUnheld: (roleId: RoleId) => boolean
    readonly remove: (roleId: RoleId) => void
  }
>()("roster/memory/MemoryRoleHolders") {}

export const roleHoldersLayer = Layer.sync(MemoryRoleHolders, () => {
  const organizations = new Map<RoleId, OrganizationId>()
  const holders = new Map<RoleId, number>()
  return MemoryRoleHolders.of({
    add: (organizationId, roleId) => void organizations.set(roleId, organizationId),
    organizationOf: (roleId) => organizations.get(roleId),
    hold: (organizationId, roleId) => {
      if (organizations.get(roleId) !== organizationId) return false
      holders.set(roleId, (holders.get(roleId) ?? 0) + 1)
      return true
    },
    release: (roleId) => {
      const count = holders.get(roleId) ?? 0
      if (count > 1) holders.set(roleId, count - 1)
      else holders.delete(roleId)
    },
    removeUnheld: (roleId) => {
      if (holders.has(roleId)) return false
      organizations.delete(roleId)
      return true
    },
    remove: (roleId) => {
      organizations.delete(roleId)
      holders.delete(roleId)
    }
  })
})
