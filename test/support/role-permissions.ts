import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  PermissionId,
  type PermissionKey,
  permissionIdOf,
  type RoleId,
  RolePermissionStore
} from "../../core/index.ts"
import { roleWith } from "./roster.ts"

/** The catalog's ids and keys as published: part of the contract, only ever appended to. */
export const publishedPermissions: ReadonlyArray<readonly [number, PermissionKey]> = [
  [1, "team.read"],
  [2, "team.members.write"],
  [3, "team.roles.write"],
  [4, "team.permissions.write"],
  [5, "billing.read"],
  [6, "billing.subscribe"],
  [7, "admin.accounts.write"],
  [8, "audit.read"],
  [9, "organization.write"],
  [10, "organization.api_keys.write"],
  [11, "organization.webhooks.write"],
  [12, "organization.sso.write"]
]

export const idsOf = (...keys: ReadonlyArray<PermissionKey>) => keys.map(permissionIdOf)

/** The role's permission record; a role without one fails the test. */
export const detailOfRole = Effect.fnUntraced(function* (roleId: RoleId) {
  const detail = yield* (yield* RolePermissionStore).findByRole(roleId)
  if (Option.isNone(detail)) return assert.fail(`role ${roleId} has no permission record`)
  return detail.value
})

/** A role holding exactly `permissions`, with the record that lists them. */
export const roleWithRecord = Effect.fnUntraced(function* (
  roleKey: string,
  permissions: ReadonlyArray<PermissionKey>
) {
  const role = yield* roleWith(roleKey, permissions)
  return { role, detail: yield* detailOfRole(role.id) }
})

/** A permission id the catalog does not have. */
export const outsideCatalog = PermissionId.make(999)
