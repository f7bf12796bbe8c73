import { DateTime, Effect, Option } from "effect"
import type { OrganizationId } from "../../model/ids.ts"
import { ownerRoleKey } from "../../model/organization.ts"
import { PermissionCatalog } from "../../model/permission.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { NewRole } from "../../model/role.ts"
import { RolePermissionStore } from "../../ports/role-permission-store.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { everyRole } from "../roles/every-role.ts"

/** The organisation's role keyed `owner`, if it has one. */
const ownerRole = Effect.map(everyRole, (roles) =>
  Option.fromUndefinedOr(roles.find((role) => role.roleKey === ownerRoleKey))
)

/**
 * Gives an organisation its built-in `Owner` role holding every permission of the catalog. Each step
 * is idempotent (the role key is unique, a held permission is not granted twice), so it finishes a
 * creation a crash interrupted and grants the permissions appended to the catalog since: the service
 * runs it for every organisation at start.
 */
export const setUpOrganization = (organizationId: OrganizationId) =>
  Effect.gen(function* () {
    const roles = yield* RoleStore
    const existing = yield* ownerRole
    const owner = Option.isSome(existing)
      ? existing.value
      : yield* roles
          .insert(
            new NewRole({
              name: "Owner",
              roleKey: ownerRoleKey,
              activeStatus: true,
              createdAt: yield* DateTime.now
            })
          )
          .pipe(
            // Created meanwhile by another instance starting: that one is the owner role.
            Effect.catchTag("DuplicateRoleKey", () =>
              Effect.flatMap(ownerRole, (found) =>
                Option.isSome(found)
                  ? Effect.succeed(found.value)
                  : Effect.die(new Error("owner role vanished"))
              )
            )
          )
    const details = yield* RolePermissionStore
    const now = yield* DateTime.now
    const held = Option.match(yield* details.findByRole(owner.id), {
      onNone: () => new Set<number>(),
      onSome: (detail) => new Set<number>(detail.permissionIds)
    })
    for (const permission of PermissionCatalog) {
      if (!held.has(permission.id)) yield* details.grant(owner.id, permission.id, now)
    }
    return owner
  }).pipe(Effect.provideService(CurrentOrganization, organizationId))
