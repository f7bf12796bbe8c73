import { Effect, Layer, Option } from "effect"
import { type Role, type RoleId, RoleLookup, RolePermissionStore, RoleStore } from "../../core/index.ts"

/** `RoleLookup` from the store ports, one read each: for process memory, where a read costs nothing. */
export const composedRoleLookupLayer = Layer.effect(
  RoleLookup,
  Effect.gen(function* () {
    const roles = yield* RoleStore
    const permissions = yield* RolePermissionStore
    // The record read through the port itself, not `permissionsOfRole`: providing the store to that
    // on every authenticated request would copy the request's context each time.
    const withPermissions = (role: Role) =>
      Effect.map(permissions.findByRole(role.id), (detail) =>
        Option.match(detail, {
          onNone: () => ({ role, permissionIds: [] }),
          onSome: ({ id, permissionIds }) => ({ role, permissionIds, recordId: id })
        })
      )
    return RoleLookup.of({
      find: (id: RoleId) =>
        Effect.flatMap(roles.findById(id), (role) =>
          Option.isNone(role) ? Effect.succeedNone : Effect.asSome(withPermissions(role.value))
        ),
      page: (after, limit) =>
        Effect.flatMap(roles.page(after, limit), (page) => Effect.forEach(page, withPermissions))
    })
  })
)
