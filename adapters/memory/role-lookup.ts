import { Effect, Layer, Option } from "effect"
import {
  type PermissionId,
  type RoleId,
  RoleLookup,
  type RolePermissionDetail,
  RolePermissionStore,
  RoleStore
} from "../../core/index.ts"

/** `RoleLookup` from the store ports, one read each: for process memory, where a read costs nothing. */
export const composedRoleLookupLayer = Layer.effect(
  RoleLookup,
  Effect.gen(function* () {
    const roles = yield* RoleStore
    const permissions = yield* RolePermissionStore
    // The record read through the port itself, not `permissionsOfRole`: providing the store to that
    // on every authenticated request would copy the request's context each time.
    const heldBy = Option.match({
      onNone: (): ReadonlyArray<PermissionId> => [],
      onSome: (detail: RolePermissionDetail) => detail.permissionIds
    })
    const find = (id: RoleId) =>
      Effect.flatMap(roles.findById(id), (role) =>
        Option.isNone(role)
          ? Effect.succeedNone
          : Effect.map(permissions.findByRole(id), (detail) =>
              Option.some({ role: role.value, permissionIds: heldBy(detail) })
            )
      )
    return RoleLookup.of({ find })
  })
)
