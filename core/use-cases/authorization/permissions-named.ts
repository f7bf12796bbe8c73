import { Effect } from "effect"
import type { PermissionRef } from "../../model/authorization.ts"
import { UnknownPermission } from "../../model/errors.ts"
import { findPermission, type Permission, PermissionCatalog } from "../../model/permission.ts"

const inCatalog = (ref: PermissionRef): Permission | undefined =>
  typeof ref === "number"
    ? findPermission(ref)
    : PermissionCatalog.find((permission) => permission.key === ref)

/**
 * The catalog's permissions `refs` name (an id or a key each), in their order; the first the
 * catalog does not hold fails them all, so that a typo is never answered as a denial.
 */
export const permissionsNamed = (
  refs: ReadonlyArray<PermissionRef>
): Effect.Effect<ReadonlyArray<Permission>, UnknownPermission> =>
  Effect.suspend(() => {
    const found: Array<Permission> = []
    for (const ref of refs) {
      const permission = inCatalog(ref)
      if (permission === undefined)
        return Effect.fail(
          new UnknownPermission(typeof ref === "number" ? { permissionId: ref } : { key: ref })
        )
      found.push(permission)
    }
    return Effect.succeed(found)
  })
