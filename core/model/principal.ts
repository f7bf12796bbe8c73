import { Schema } from "effect"
import { ApiKeyId, OrganizationId, PermissionId, ScimTokenId, TokenHash } from "./ids.ts"
import { Member } from "./member.ts"

/** The operator holding the master key. */
export const MasterPrincipal = Schema.TaggedStruct("Master", {})
/** Anonymous caller in open local mode (no master key configured). */
export const OpenLocalPrincipal = Schema.TaggedStruct("OpenLocal", {})
export const MemberPrincipal = Schema.TaggedStruct("Member", {
  member: Member,
  permissionIds: Schema.Array(PermissionId),
  sessionTokenHash: TokenHash,
  /** The session's organisation: fixed for its lifetime. */
  organizationId: OrganizationId,
  /** Its organisation requires TOTP and the account has none yet: it may only enrol (see `Session`). */
  mfaPending: Schema.optionalKey(Schema.Boolean)
})

/**
 * An identity provider holding one of the organisation's SCIM tokens: it acts on that organisation
 * only, with the permissions the token was given when it was made.
 */
export const ScimPrincipal = Schema.TaggedStruct("Scim", {
  tokenId: ScimTokenId,
  organizationId: OrganizationId,
  permissionIds: Schema.Array(PermissionId)
})

/**
 * A machine holding one of the organisation's API keys: it acts on that organisation only, with the
 * key's permissions. It is no person: what needs one (a password, a session) refuses it.
 */
export const ApiKeyPrincipal = Schema.TaggedStruct("ApiKey", {
  keyId: ApiKeyId,
  name: Schema.String,
  organizationId: OrganizationId,
  permissionIds: Schema.Array(PermissionId)
})

export const Principal = Schema.Union([
  MasterPrincipal,
  OpenLocalPrincipal,
  MemberPrincipal,
  ScimPrincipal,
  ApiKeyPrincipal
])
export type Principal = typeof Principal.Type
export type MemberPrincipal = typeof MemberPrincipal.Type
export type ScimPrincipal = typeof ScimPrincipal.Type
export type ApiKeyPrincipal = typeof ApiKeyPrincipal.Type

export const masterPrincipal: Principal = { _tag: "Master" }
export const openLocalPrincipal: Principal = { _tag: "OpenLocal" }

/** A member's session whose organisation requires TOTP the account has not enrolled yet: it may only enrol. */
export const owesSecondFactor = (principal: Principal): boolean =>
  // Stryker disable next-line ConditionalExpression: only a member's session has `mfaPending`; the tag's check narrows the type
  principal._tag === "Member" && principal.mfaPending === true
