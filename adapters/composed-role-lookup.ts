import { Effect, Layer, Option } from "effect"
import { permissionsOfRole, RoleLookup, RolePermissionStore, RoleStore } from "../core/index.ts"

/** `RoleLookup` from the store ports, one read each: for process memory, where a read costs nothing. */
export const composedRoleLookupLayer = Layer.effect(
  RoleLookup,
  Effect.gen(function* () {
    const roles = yield* RoleStore
    const permissions = yield* RolePermissionStore
    return RoleLookup.of({
      find: (id) =>
        Effect.flatMap(roles.findById(id), (role) =>
          Option.isNone(role)
            ? Effect.succeedNone
            : permissionsOfRole(id).pipe(
                Effect.map((permissionIds) => Option.some({ role: role.value, permissionIds })),
                Effect.provideService(RolePermissionStore, permissions)
              )
        )
    })
  })
)
