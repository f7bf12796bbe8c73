import { Effect, Layer, Option } from "effect"
import { DuplicateRoleKey, Role, RoleId, RoleStore } from "../../core/index.ts"

export const makeRoleStore = Effect.sync(() => {
  const roles = new Map<number, Role>()
  let lastId = 0

  return RoleStore.of({
    insert: (role) =>
      Effect.suspend(() => {
        if ([...roles.values()].some((existing) => existing.roleKey === role.roleKey)) {
          return Effect.fail(new DuplicateRoleKey({ roleKey: role.roleKey }))
        }
        const created = new Role({ ...role, id: RoleId.make(++lastId) })
        roles.set(created.id, created)
        return Effect.succeed(created)
      }),
    update: (id, changes) =>
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
        return Effect.succeed(Option.some(updated))
      }),
    findById: (id) => Effect.sync(() => Option.fromNullishOr(roles.get(id))),
    list: Effect.sync(() => [...roles.values()])
  })
})

export const roleStoreLayer = Layer.effect(RoleStore, makeRoleStore)
