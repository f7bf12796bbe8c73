import { Effect, Layer, Option } from "effect"
import {
  type AuditEntry,
  RolePermissionDetail,
  RolePermissionDetailId,
  RolePermissionStore,
  sortedPermissions,
  withoutPermission,
  withPermission
} from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

export const makeRolePermissionStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const details = new Map<number, RolePermissionDetail>()
  let lastId = 0
  const byRole = (roleId: number) => [...details.values()].find((detail) => detail.roleId === roleId)
  const save = (detail: RolePermissionDetail) => {
    details.set(detail.id, detail)
    return detail
  }
  const saveRecorded = (entry: AuditEntry | undefined) => (detail: RolePermissionDetail) => {
    trail.append(entry)
    return save(detail)
  }

  return RolePermissionStore.of({
    grant: (roleId, permissionId, at, audit) =>
      Effect.sync(() => {
        const existing = byRole(roleId)
        if (existing?.permissionIds.includes(permissionId)) return existing
        const granted = save(
          new RolePermissionDetail({
            id: existing?.id ?? RolePermissionDetailId.make(++lastId),
            roleId,
            permissionIds: sortedPermissions(withPermission(new Set(existing?.permissionIds), permissionId)),
            updatedAt: at
          })
        )
        trail.append(audit?.(granted))
        return granted
      }),
    revoke: (id, permissionId, at, entry) =>
      Effect.sync(() =>
        Option.fromNullishOr(details.get(id)).pipe(
          Option.map((current) =>
            current.permissionIds.includes(permissionId)
              ? saveRecorded(entry)(
                  new RolePermissionDetail({
                    ...current,
                    permissionIds: sortedPermissions(
                      withoutPermission(new Set(current.permissionIds), permissionId)
                    ),
                    updatedAt: at
                  })
                )
              : current
          )
        )
      ),
    findById: (id) => Effect.sync(() => Option.fromNullishOr(details.get(id))),
    findByRole: (roleId) => Effect.sync(() => Option.fromNullishOr(byRole(roleId))),
    rolesHolding: (permissionIds) =>
      Effect.sync(() =>
        [...details.values()]
          .filter((detail) => permissionIds.every((id) => detail.permissionIds.includes(id)))
          .map((detail) => detail.roleId)
          .sort((a, b) => a - b)
      ),
    removeOfRole: (roleId) =>
      Effect.sync(() => {
        const detail = byRole(roleId)
        if (detail !== undefined) details.delete(detail.id)
      })
  })
})

export const rolePermissionStoreLayer = Layer.effect(RolePermissionStore, makeRolePermissionStore)
