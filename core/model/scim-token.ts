import { Schema } from "effect"
import { OrganizationId, PermissionId, ScimTokenId, TokenHash } from "./ids.ts"
import { withoutMarker } from "./permission-set.ts"
import { inNfc, isDisplayable } from "./text.ts"

/** What an administrator calls a token: the identity provider it was made for, say. */
export const ScimTokenName = inNfc(
  Schema.String.check(Schema.isTrimmed(), Schema.isBetweenLength(1, 100), isDisplayable)
)

/**
 * An organisation's SCIM token as it is listed: never the token itself. `permissionIds` is what it
 * acts with, fixed when it was made: its creator's permissions then, less `organization.write`.
 */
export class ScimToken extends Schema.Class<ScimToken>("roster/ScimToken")({
  id: ScimTokenId,
  name: ScimTokenName,
  permissionIds: Schema.Array(PermissionId),
  createdAt: Schema.DateTimeUtc
}) {}

/** A SCIM token as stored: known only by its hash, in one organisation. */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class ScimTokenRecord extends Schema.Class<ScimTokenRecord>("roster/ScimTokenRecord")({
  ...ScimToken.fields,
  organizationId: OrganizationId,
  tokenHash: TokenHash
}) {}

export const toScimToken = (record: ScimTokenRecord): ScimToken =>
  new ScimToken(
    {
      id: record.id,
      name: record.name,
      permissionIds: withoutMarker(record.permissionIds),
      createdAt: record.createdAt
    },
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: checking a checked record again changes its cost, never its result
    { disableChecks: true }
  )
