import { type DateTime, Schema } from "effect"
import { PermissionId, RoleId, RolePermissionDetailId } from "./ids.ts"
import { cursorOf } from "./page.ts"
import { inNfc, isDisplayable } from "./text.ts"

export const RoleName = inNfc(
  Schema.String.check(Schema.isTrimmed(), Schema.isBetweenLength(1, 100), isDisplayable)
)

export const RoleKey = Schema.String.check(
  Schema.isPattern(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/u, {
    expected: "a lower-case slug such as 'billing-admin'"
  }),
  Schema.isMaxLength(64)
)

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class (the API answers RoleView)
export class Role extends Schema.Class<Role>("roster/StoredRole")({
  id: RoleId,
  name: RoleName,
  roleKey: RoleKey,
  activeStatus: Schema.Boolean,
  createdAt: Schema.DateTimeUtc,
  /** When it was last deactivated: its holders' sessions begun before then no longer count. */
  deactivatedAt: Schema.optionalKey(Schema.DateTimeUtc)
}) {}

/**
 * A role as the API answers it: with the permissions it holds (sorted) and the id of its permission
 * record, null until something is first granted to it. Published as `Role`.
 */
export class RoleView extends Schema.Class<RoleView>("roster/Role")({
  ...Role.fields,
  permissionIds: Schema.Array(PermissionId),
  recordId: Schema.NullOr(RolePermissionDetailId)
}) {}

/** What acting under a role depends on: that it is active, and when it was last deactivated. */
export type RoleStanding = Pick<Role, "activeStatus" | "deactivatedAt">

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class NewRole extends Schema.Class<NewRole>("roster/NewRole")({
  name: RoleName,
  roleKey: RoleKey,
  activeStatus: Schema.Boolean,
  createdAt: Schema.DateTimeUtc
}) {}

/** What the audit record shows of a role's changes. */
export const roleAuditFields = ["name", "roleKey", "activeStatus"]

/** What a change to a role may set; what it leaves out stays as it is. */
export const RoleChanges = Schema.Struct({
  name: Schema.optionalKey(RoleName),
  roleKey: Schema.optionalKey(RoleKey),
  activeStatus: Schema.optionalKey(Schema.Boolean)
})
export type RoleChanges = typeof RoleChanges.Type

/** A change to a role as a store writes it: with the instant of a deactivation, when it is one. */
export interface RoleUpdate extends RoleChanges {
  readonly deactivatedAt?: DateTime.Utc
}

/** Where a page of roles ends: roles are listed by id. */
export const RolePosition = Schema.Struct({ id: RoleId })
export type RolePosition = typeof RolePosition.Type

export const RoleCursor = cursorOf(RolePosition)
