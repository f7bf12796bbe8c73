import { Effect, Option } from "effect"
import { PermissionId, type RoleId } from "../../model/ids.ts"
import type { Organization } from "../../model/organization.ts"
import { isSubsetOf } from "../../model/permission-set.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { RoleLookup } from "../../ports/role-lookup.ts"
import { everyRole } from "../roles/every-role.ts"
import { grantEveryPermission, insertOwnerRole } from "./owner-role.ts"

/** The catalog as it was while owners' roles were not yet recorded by id: what such a role held. */
const catalogBeforeOwnersById = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((id) => PermissionId.make(id))

/**
 * The Owner role of an organisation stored before organisations recorded theirs: the one made with
 * it, its oldest role, if it holds that whole catalog (so nothing is given to a role that did not
 * have it all); a new one when the organisation has no role at all (its creation was cut short).
 * Recorded once found; never looked for by key or name, which its holders may change.
 */
const recordOwnerRole = Effect.fnUntraced(function* (organization: Organization) {
  const [oldest] = yield* everyRole
  let owner: RoleId | undefined
  if (oldest === undefined) {
    owner = yield* insertOwnerRole.pipe(
      Effect.map((role) => role.id),
      // Another instance starting made it meanwhile: the next start records it.
      Effect.catchTag("DuplicateRoleKey", () => Effect.succeed(undefined))
    )
  } else {
    const found = yield* (yield* RoleLookup).find(oldest.id)
    if (Option.isSome(found) && isSubsetOf(catalogBeforeOwnersById, new Set(found.value.permissionIds)))
      owner = oldest.id
  }
  if (owner !== undefined) yield* (yield* OrganizationStore).recordOwnerRole(organization.id, owner)
  return owner
})

/**
 * At start, for an organisation other than the default one: its Owner role (the one it records by
 * id) holds every permission of the catalog, so that an interrupted creation is finished and a
 * permission appended to the catalog since is held by it.
 */
export const setUpOrganization = (organization: Organization) =>
  Effect.gen(function* () {
    const owner = organization.ownerRoleId ?? (yield* recordOwnerRole(organization))
    if (owner !== undefined) yield* grantEveryPermission(owner)
  }).pipe(Effect.provideService(CurrentOrganization, organization.id))
