import { type DateTime, Effect, Layer, Option } from "effect"
import {
  type AuditEntry,
  type OrganizationId,
  type PermissionId,
  type RoleId,
  RolePermissionDetail,
  RolePermissionDetailId,
  RolePermissionStore,
  RoleStore,
  sortedPermissions,
  syncInOrganization,
  withoutPermission,
  withPermission
} from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

export const makeRolePermissionStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const roles = yield* RoleStore
  const details = new Map<number, RolePermissionDetail>()
  const organizationOf = new Map<number, OrganizationId>()
  let lastId = 0
  const detailsOf = (organizationId: OrganizationId) =>
    [...details.values()].filter((detail) => organizationOf.get(detail.id) === organizationId)
  const lookup = (organizationId: OrganizationId, id: number) =>
    Option.fromNullishOr(organizationOf.get(id) === organizationId ? details.get(id) : undefined)
  const byRole = (organizationId: OrganizationId, roleId: number) =>
    detailsOf(organizationId).find((detail) => detail.roleId === roleId)
  const save = (detail: RolePermissionDetail, organizationId: OrganizationId) => {
    details.set(detail.id, detail)
    organizationOf.set(detail.id, organizationId)
    return detail
  }
  const saveRecorded =
    (entry: AuditEntry | undefined, organizationId: OrganizationId) => (detail: RolePermissionDetail) => {
      trail.append(entry)
      return save(detail, organizationId)
    }

  const grantIn = (
    organizationId: OrganizationId,
    roleId: RoleId,
    permissionId: PermissionId,
    at: DateTime.Utc,
    audit: ((detail: RolePermissionDetail) => AuditEntry) | undefined
  ) => {
    const existing = byRole(organizationId, roleId)
    if (existing?.permissionIds.includes(permissionId)) return existing
    const granted = save(
      new RolePermissionDetail({
        id: existing?.id ?? RolePermissionDetailId.make(++lastId),
        roleId,
        permissionIds: sortedPermissions(withPermission(new Set(existing?.permissionIds), permissionId)),
        updatedAt: at
      }),
      organizationId
    )
    trail.append(audit?.(granted))
    return granted
  }

  return RolePermissionStore.of({
    grant: (roleId, permissionId, at, audit) =>
      Effect.flatMap(roles.findById(roleId), (role) =>
        Option.isNone(role)
          ? Effect.succeedNone
          : Effect.map(
              syncInOrganization((organizationId) =>
                grantIn(organizationId, roleId, permissionId, at, audit)
              ),
              Option.some
            )
      ),
    revoke: ({ id, roleId }, permissionId, at, entry) =>
      syncInOrganization((organizationId) =>
        lookup(organizationId, id).pipe(
          Option.filter((current) => current.roleId === roleId),
          Option.map((current) =>
            current.permissionIds.includes(permissionId)
              ? saveRecorded(
                  entry,
                  organizationId
                )(
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
    findById: (id) => syncInOrganization((organizationId) => lookup(organizationId, id)),
    findByRole: (roleId) =>
      syncInOrganization((organizationId) => Option.fromNullishOr(byRole(organizationId, roleId))),
    rolesHolding: (permissionIds) =>
      syncInOrganization((organizationId) =>
        detailsOf(organizationId)
          .filter((detail) => permissionIds.every((id) => detail.permissionIds.includes(id)))
          .map((detail) => detail.roleId)
          .sort((a, b) => a - b)
      ),
    removeAll: syncInOrganization((organizationId) => {
      for (const detail of detailsOf(organizationId)) {
        details.delete(detail.id)
        organizationOf.delete(detail.id)
      }
    }),
    removeOfRole: (roleId) =>
      syncInOrganization((organizationId) => {
        const detail = byRole(organizationId, roleId)
        if (detail !== undefined) details.delete(detail.id)
      })
  })
})

export const rolePermissionStoreLayer = Layer.effect(RolePermissionStore, makeRolePermissionStore)
