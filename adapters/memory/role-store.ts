import { Effect, Layer, Option } from "effect"
import {
  DuplicateRoleKey,
  inOrganization,
  type OrganizationId,
  Role,
  RoleId,
  RoleInUse,
  RoleStore,
  syncInOrganization
} from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"
import { MemoryRoleHolders } from "./role-holders.ts"

export const makeRoleStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const holders = yield* MemoryRoleHolders
  const roles = new Map<number, Role>()
  let lastId = 0
  const rolesOf = (organizationId: OrganizationId) =>
    [...roles.values()].filter((role) => holders.organizationOf(role.id) === organizationId)
  const lookup = (organizationId: OrganizationId, id: RoleId) =>
    holders.organizationOf(id) === organizationId ? roles.get(id) : undefined

  return RoleStore.of({
    insert: (role, audit) =>
      inOrganization((organizationId) => {
        if (rolesOf(organizationId).some((existing) => existing.roleKey === role.roleKey)) {
          return Effect.fail(new DuplicateRoleKey({ roleKey: role.roleKey }))
        }
        const created = new Role({ ...role, id: RoleId.make(++lastId) })
        roles.set(created.id, created)
        holders.add(organizationId, created.id)
        trail.append(audit?.(created))
        return Effect.succeed(created)
      }),
    update: (id, changes, entry) =>
      inOrganization((organizationId) => {
        const current = lookup(organizationId, id)
        if (current === undefined) return Effect.succeed(Option.none())
        const taken = rolesOf(organizationId).some(
          (existing) => existing.id !== id && existing.roleKey === changes.roleKey
        )
        if (changes.roleKey !== undefined && taken) {
          return Effect.fail(new DuplicateRoleKey({ roleKey: changes.roleKey }))
        }
        const updated = new Role({ ...current, ...changes })
        roles.set(id, updated)
        trail.append(entry)
        return Effect.succeed(Option.some(updated))
      }),
    remove: (id, entry) =>
      inOrganization((organizationId) => {
        const role = lookup(organizationId, id)
        if (role === undefined) return Effect.succeed(Option.none())
        if (!holders.removeUnheld(id)) return Effect.fail(new RoleInUse({ roleId: id }))
        roles.delete(id)
        trail.append(entry)
        return Effect.succeed(Option.some(role))
      }),
    removeAll: syncInOrganization((organizationId) => {
      for (const role of rolesOf(organizationId)) {
        roles.delete(role.id)
        holders.remove(role.id)
      }
    }),
    findById: (id) =>
      syncInOrganization((organizationId) => Option.fromNullishOr(lookup(organizationId, id))),
    // A Map keeps insertion order, which is id order.
    page: (after, limit) =>
      syncInOrganization((organizationId) =>
        rolesOf(organizationId)
          .filter((role) => after === undefined || role.id > after)
          .slice(0, limit)
      )
  })
})

export const roleStoreLayer = Layer.effect(RoleStore, makeRoleStore)
