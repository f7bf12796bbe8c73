import { Effect, Layer, Option } from "effect"
import {
  type Role,
  type RoleId,
  RoleLookup,
  RolePermissionStore,
  RoleStore,
  type RoleWithPermissions
} from "../../core/index.ts"

/** `RoleLookup` from the store ports, one read each: for process memory, where a read costs nothing. */
export const composedRoleLookupLayer = Layer.effect(
  RoleLookup,
  Effect.gen(function* () {
    const roles = yield* RoleStore
    const permissions = yield* RolePermissionStore
    // The same answer while the role and its record are the ones read: the stores replace a record
    // they change, so what is made of one holds for as long as it lives (as the members' faces do).
    const made = new WeakMap<
      Role,
      { readonly of: object | undefined; readonly answer: RoleWithPermissions }
    >()
    // The record read through the port itself, not `permissionsOfRole`: providing the store to that
    // on every authenticated request would copy the request's context each time.
    const withPermissions = (role: Role) =>
      Effect.map(permissions.findByRole(role.id), (detail) => {
        const record = Option.getOrUndefined(detail)
        const known = made.get(role)
        if (known !== undefined && known.of === record) return known.answer
        const answer: RoleWithPermissions =
          record === undefined
            ? { role, permissionIds: [] }
            : { role, permissionIds: record.permissionIds, recordId: record.id }
        made.set(role, { of: record, answer })
        return answer
      })
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
