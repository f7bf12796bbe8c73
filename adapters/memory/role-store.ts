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
    findById: (id) => Effect.sync(() => Option.fromNullishOr(roles.get(id))),
    list: Effect.sync(() => [...roles.values()])
  })
})

export const roleStoreLayer = Layer.effect(RoleStore, makeRoleStore)
