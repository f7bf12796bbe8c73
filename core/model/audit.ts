import { Schema } from "effect"
import { OrganizationId } from "./ids.ts"
import { cursorOf } from "./page.ts"
import { isDisplayable } from "./text.ts"

export const AuditEntryId = Schema.String.check(Schema.isBetweenLength(1, 128)).pipe(
  // Stryker disable next-line StringLiteral: a brand's name exists for the type checker; no value at run time depends on it
  Schema.brand("AuditEntryId")
)
export type AuditEntryId = typeof AuditEntryId.Type

export const AuditAction = Schema.Literals([
  "member.added",
  "member.updated",
  "member.removed",
  "member.password_set",
  "member.password_changed",
  "account.enabled",
  "account.disabled",
  "role.added",
  "role.updated",
  "role.removed",
  "permission.granted",
  "permission.removed",
  "subscription.created",
  "subscription.updated",
  "organization.created",
  "organization.updated",
  "organization.deleted",
  "invitation.created",
  "invitation.revoked",
  "invitation.accepted",
  "scim_token.created",
  "scim_token.revoked",
  "api_key.created",
  "api_key.updated",
  "api_key.rotated",
  "api_key.revoked",
  "login.failed",
  "login.throttled",
  "password.reset",
  "email.verified",
  "session.revoked",
  "mfa.enabled",
  "mfa.disabled",
  "mfa.recovery_codes_regenerated",
  "mfa.recovery_code_used",
  "mfa.reset",
  "mfa.replaced",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "webhook.disabled",
  "domain.created",
  "domain.verified",
  "domain.deleted",
  "sso.connection.created",
  "sso.connection.updated",
  "sso.connection.deleted",
  "sso.login",
  "sso.linked",
  "auth.login",
  "passkey.added",
  "passkey.removed",
  "passkey.clone_suspected"
])
export type AuditAction = typeof AuditAction.Type

/**
 * Who acted: a member (by id), the operator's master key, the open local mode, the payment provider,
 * an identity provider through a SCIM token (by the token's id), an API key (by its id), or Roster
 * itself (the event sender disabling an endpoint that keeps failing), or an identity provider
 * through a single sign-on connection (by the connection's id: a member it made just in time).
 */
export const AuditActor = Schema.Struct({
  kind: Schema.Literals(["member", "master", "open", "provider", "scim", "api_key", "system", "sso"]),
  id: Schema.optionalKey(Schema.String)
})
export type AuditActor = typeof AuditActor.Type

export const AuditTarget = Schema.Struct({
  type: Schema.Literals([
    "member",
    "role",
    "role_permission_detail",
    "subscription",
    "login",
    "organization",
    "invitation",
    "scim_token",
    "api_key",
    "session",
    "webhook",
    "domain",
    "sso_connection"
  ]),
  id: Schema.String
})
export type AuditTarget = typeof AuditTarget.Type

/** A field's value before and after, `null` where there was none; never a secret. */
export const FieldChange = Schema.Tuple([Schema.Unknown, Schema.Unknown])

/** How a sign-in proved who it was. */
export const SignInMethod = Schema.Literals(["passkey"])

export class AuditEntry extends Schema.Class<AuditEntry>("roster/AuditEntry")({
  id: AuditEntryId,
  at: Schema.DateTimeUtc,
  action: AuditAction,
  actor: AuditActor,
  target: AuditTarget,
  changes: Schema.Record(Schema.String, FieldChange),
  requestId: Schema.optionalKey(Schema.String),
  /** How a sign-in proved who it was (`auth.login`): a passkey. */
  method: Schema.optionalKey(SignInMethod),
  /** See `CurrentRequestKey`; kept in the record, never published. */
  requestKey: Schema.optionalKey(Schema.String),
  /** Whose record holds the entry (the default organisation's when absent); never published. */
  organizationId: Schema.optionalKey(OrganizationId)
}) {}

/** Where a page of the record ends: newest first, the id breaking ties. */
export const AuditPosition = Schema.Struct({
  at: Schema.DateTimeUtcFromMillis,
  id: AuditEntryId
})
export type AuditPosition = typeof AuditPosition.Type

export const AuditCursor = cursorOf(AuditPosition)

/** Which entries a list shows; every filter given must hold. */
export const AuditFilter = Schema.Struct({
  action: Schema.optionalKey(AuditAction),
  actorId: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 128), isDisplayable)),
  targetId: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 128), isDisplayable)),
  /** Only entries at or after this instant. */
  since: Schema.optionalKey(Schema.DateTimeUtc)
})
export type AuditFilter = typeof AuditFilter.Type

export interface AuditQuery extends AuditFilter {
  readonly after?: AuditPosition
}

/**
 * The fields of `after` that differ from `before`, as `{ field: [before, after] }`; a side that is
 * absent (a creation, a removal) is `null`. Values are compared as JSON.
 */
export const changesBetween = (
  before: object | null,
  after: object | null,
  fields: ReadonlyArray<string>
): Record<string, readonly [unknown, unknown]> => {
  const changes: Record<string, readonly [unknown, unknown]> = {}
  const valueOf = (value: object | null, field: string) =>
    value === null ? null : ((value as Record<string, unknown>)[field] ?? null)
  for (const field of fields) {
    const was = valueOf(before, field)
    const is = valueOf(after, field)
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[field] = [was, is]
  }
  return changes
}
