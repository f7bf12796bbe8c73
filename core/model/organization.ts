import { Schema } from "effect"
import { OrganizationId, RoleId } from "./ids.ts"
import { cursorOf } from "./page.ts"
import { inNfc, isDisplayable } from "./text.ts"

export const defaultOrganizationId = OrganizationId.make("default")
export const defaultOrganizationSlug = "default"

export const OrganizationSlug = Schema.String.check(
  Schema.isPattern(/^[a-z0-9-]{3,48}$/u, { expected: "3 to 48 characters: a-z, 0-9 or '-'" })
)

export const OrganizationName = inNfc(
  Schema.String.check(Schema.isTrimmed(), Schema.isBetweenLength(1, 100), isDisplayable)
)

export class Organization extends Schema.Class<Organization>("roster/Organization")({
  id: OrganizationId,
  name: OrganizationName,
  slug: OrganizationSlug,
  /** The role of members provisioned without one (by SCIM); none until an administrator sets it. */
  defaultRoleId: Schema.optionalKey(RoleId),
  /**
   * Its built-in `Owner` role, by id: the role granted every permission of the catalog, whatever its
   * key or name become. None for the default organisation, which has no built-in role.
   */
  ownerRoleId: Schema.optionalKey(RoleId),
  /** Whether its members must sign in with a second factor (TOTP); absent: they need not. */
  requireMfa: Schema.optionalKey(Schema.Boolean),
  /**
   * Whether members whose e-mail is in a domain it verified sign in through single sign-on only
   * (owners keep their password: the way back in when the identity provider fails); absent: no.
   */
  ssoRequired: Schema.optionalKey(Schema.Boolean),
  createdAt: Schema.DateTimeUtc
}) {}

/** What a change to an organisation may set; the slug, which names it in requests, stays. */
export const OrganizationChanges = Schema.Struct({
  name: Schema.optionalKey(OrganizationName),
  defaultRoleId: Schema.optionalKey(RoleId),
  /** Members without TOTP may then only enrol, read who they are and sign out (403 `mfa_required`). */
  requireMfa: Schema.optionalKey(Schema.Boolean),
  /** Members in its verified domains may then sign in only through SSO (403 `sso_required`), owners aside. */
  ssoRequired: Schema.optionalKey(Schema.Boolean)
})
export type OrganizationChanges = typeof OrganizationChanges.Type

export const organizationAuditFields = [
  "name",
  "slug",
  "defaultRoleId",
  "ownerRoleId",
  "requireMfa",
  "ssoRequired"
]

/** How a request names an organisation: its id or its slug. */
export const OrganizationRef = Schema.String.check(Schema.isBetweenLength(1, 128))

/** What creating an organisation takes. */
export const NewOrganization = Schema.Struct({ name: OrganizationName, slug: OrganizationSlug })
export type NewOrganization = typeof NewOrganization.Type

/** Where a page of organisations ends: oldest first, the id breaking ties. */
export const OrganizationPosition = Schema.Struct({
  createdAt: Schema.DateTimeUtcFromMillis,
  id: OrganizationId
})
export type OrganizationPosition = typeof OrganizationPosition.Type
export const OrganizationCursor = cursorOf(OrganizationPosition)

/** Which organisations a page lists: after a position, with a slug or name starting with `q`. */
export interface OrganizationQuery {
  readonly after?: OrganizationPosition
  readonly q?: string
}
