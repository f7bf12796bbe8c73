import { DateTime, Effect, Option } from "effect"
import type { Db } from "mongodb"
import {
  type AuditEntry,
  type OrganizationId,
  PermissionId,
  type RoleId,
  RolePermissionDetail,
  RolePermissionDetailId,
  type StoreUnavailable,
  sortedPermissions,
  withPermission
} from "../../core/index.ts"
import type { StoredRole } from "./consistency/index.ts"
import { auditedWrites, recordFence, type Written } from "./consistency/index.ts"
import { nextInSequence } from "./counters.ts"
import { duplicateIsDefect } from "./driver.ts"
import { toDetail, toRecord } from "./role-permission-document.ts"

/**
 * Grants and revocations on the record a role's document carries, each one update behind the
 * role's fence (see `recordFence`), made only where the record is as the fence's raising read it:
 * only a real change leaves an entry, and two changes of different permissions both take effect.
 */
export const recordWrites = (db: Db) => {
  const writes = auditedWrites<StoredRole>(db, "roles")
  const fenced = recordFence(db)

  const grant = (
    organizationId: OrganizationId,
    roleId: RoleId,
    permissionId: PermissionId,
    at: DateTime.Utc,
    audit?: (detail: RolePermissionDetail) => AuditEntry
  ): Effect.Effect<Option.Option<RolePermissionDetail>, StoreUnavailable> => {
    const where = { _id: roleId, organizationId }
    return fenced(
      organizationId,
      roleId
    )(
      // Undefined: the record changed since the fence read it, and the grant is made again.
      (role, fence): Effect.Effect<Written<RolePermissionDetail | undefined>, StoreUnavailable> =>
        Effect.gen(function* () {
          const current = role.record
          if (current?.permissionIds.includes(permissionId))
            return { value: yield* toDetail(role), lifted: false }
          const after = new RolePermissionDetail({
            id: RolePermissionDetailId.make(current?.id ?? (yield* nextInSequence(db, "role_permissions"))),
            roleId,
            permissionIds: sortedPermissions(
              withPermission(
                new Set((current?.permissionIds ?? []).map((id) => PermissionId.make(id))),
                permissionId
              )
            ),
            updatedAt: at
          })
          const entry = audit?.(after)
          const lifting = { $pull: { fences: fence } }
          const updated = yield* duplicateIsDefect(
            writes.update(
              current === undefined
                ? { ...where, "fences.id": fence.id, record: { $exists: false } }
                : {
                    ...where,
                    "fences.id": fence.id,
                    "record.id": current.id,
                    "record.permissionIds": { $ne: permissionId }
                  },
              current === undefined
                ? { $set: { record: toRecord(after) }, ...lifting }
                : {
                    $addToSet: { "record.permissionIds": permissionId },
                    $set: { "record.updatedAt": DateTime.toDateUtc(at) },
                    ...lifting
                  },
              entry
            )
          )
          // Made or granted by another request meanwhile: the grant is made again from what is there.
          if (updated === null) return { value: undefined, lifted: false }
          return { value: yield* toDetail(updated), lifted: true }
        })
    ).pipe(
      Effect.flatMap((granted) =>
        Option.isSome(granted) && granted.value === undefined
          ? grant(organizationId, roleId, permissionId, at, audit)
          : Effect.succeed(Option.flatMap(granted, Option.fromNullishOr))
      )
    )
  }

  const revoke = (
    organizationId: OrganizationId,
    { id, roleId }: Pick<RolePermissionDetail, "id" | "roleId">,
    permissionId: PermissionId,
    at: DateTime.Utc,
    entry: AuditEntry | undefined
  ) => {
    const where = { _id: roleId, organizationId }
    return fenced(
      organizationId,
      roleId
    )((role, fence) =>
      Effect.gen(function* () {
        // Another role's record, or none: nothing to revoke here.
        if (role.record?.id !== id) return { value: Option.none<RolePermissionDetail>(), lifted: false }
        const updated = yield* duplicateIsDefect(
          writes.update(
            { ...where, "fences.id": fence.id, "record.id": id, "record.permissionIds": permissionId },
            {
              $pull: { "record.permissionIds": permissionId, fences: fence },
              $set: { "record.updatedAt": DateTime.toDateUtc(at) }
            },
            entry
          )
        )
        // Not held (taken away meanwhile): the record as the fence read it.
        return { value: Option.some(yield* toDetail(updated ?? role)), lifted: updated !== null }
      })
    ).pipe(Effect.map(Option.flatten))
  }

  return { grant, revoke }
}
