import { Effect, Layer, Option } from "effect"
import { DuplicateRoleKey, Role, RoleId, RoleInUse, RoleStore } from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

export const makeRoleStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const roles = new Map<number, Role>()
  const holders = new Map<number, number>()
  let lastId = 0

  return RoleStore.of({
    insert: (role, audit) =>
      Effect.suspend(() => {
        if ([...roles.values()].some((existing) => existing.roleKey === role.roleKey)) {
          return Effect.fail(new DuplicateRoleKey({ roleKey: role.roleKey }))
        }
        const created = new Role({ ...role, id: RoleId.make(++lastId) })
        roles.set(created.id, created)
        trail.append(audit?.(created))
        return Effect.succeed(created)
      }),
    update: (id, changes, entry) =>
      Effect.suspend(() => {
        const current = roles.get(id)
        if (current === undefined) return Effect.succeed(Option.none())
        const taken = [...roles.values()].some(
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
    claim: (id) =>
      Effect.sync(() => {
        if (!roles.has(id)) return false
        holders.set(id, (holders.get(id) ?? 0) + 1)
        return true
      }),
    release: (id) =>
      Effect.sync(() => {
        const count = holders.get(id) ?? 0
        if (count > 0) holders.set(id, count - 1)
      }),
    remove: (id, entry) =>
      Effect.suspend(() => {
        const role = roles.get(id)
        if (role === undefined) return Effect.succeed(Option.none())
        if ((holders.get(id) ?? 0) > 0) return Effect.fail(new RoleInUse({ roleId: id }))
        roles.delete(id)
        holders.delete(id)
        trail.append(entry)
        return Effect.succeed(Option.some(role))
      }),
    findById: (id) => Effect.sync(() => Option.fromNullishOr(roles.get(id))),
    // A Map keeps insertion order, which is id order.
    page: (after, limit) =>
      Effect.sync(() =>
        [...roles.values()].filter((role) => after === undefined || role.id > after).slice(0, limit)
      )
  })
})

export const roleStoreLayer = Layer.effect(RoleStore, makeRoleStore)
