import { Schema } from "effect"
import { ApiKeyId, OrganizationId, PermissionId, ScimTokenId, SessionId, TokenHash } from "./ids.ts"
import { Member } from "./member.ts"
import { AuthMethod } from "./session.ts"

/** What a member's session is, besides its token: what an access token made from it tells. */
export const SessionFacts = Schema.Struct({
  id: SessionId,
  expiresAt: Schema.DateTimeUtc,
  amr: Schema.Array(AuthMethod),
  authTime: Schema.DateTimeUtc
})

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
  mfaPending: Schema.optionalKey(Schema.Boolean),
  /** The session it authenticated with; absent where a principal is made without one (an embedding). */
  session: Schema.optionalKey(SessionFacts)
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
  permissionIds: Schema.Array(PermissionId),
  /** When the key stops working; absent: never (or not known to whoever made the principal). */
  expiresAt: Schema.optionalKey(Schema.DateTimeUtc)
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
