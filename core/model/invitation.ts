import { DateTime, Schema } from "effect"
import { InvitationId, OrganizationId, RoleId, TokenHash } from "./ids.ts"
import { Email, Password, Username } from "./member.ts"
import { cursorOf } from "./page.ts"

/** What an invitation is now: `expired` is a pending one past its time, never stored as such. */
export const InvitationStatus = Schema.Literals(["pending", "accepted", "revoked", "expired"])
export type InvitationStatus = typeof InvitationStatus.Type

/** An invitation as stored: the token only as its hash. */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class Invitation extends Schema.Class<Invitation>("roster/Invitation")({
  id: InvitationId,
  organizationId: OrganizationId,
  email: Email,
  roleId: RoleId,
  status: Schema.Literals(["pending", "accepted", "revoked"]),
  tokenHash: TokenHash,
  expiresAt: Schema.DateTimeUtc,
  createdAt: Schema.DateTimeUtc
}) {}

/** An invitation as clients see it. */
export class InvitationView extends Schema.Class<InvitationView>("roster/InvitationView")({
  id: InvitationId,
  email: Email,
  roleId: RoleId,
  status: InvitationStatus,
  expiresAt: Schema.DateTimeUtc,
  createdAt: Schema.DateTimeUtc
}) {}

export const statusAt = (invitation: Invitation, now: DateTime.Utc): InvitationStatus =>
  invitation.status === "pending" && !DateTime.isLessThan(now, invitation.expiresAt)
    ? "expired"
    : invitation.status

export const toInvitationView = (invitation: Invitation, now: DateTime.Utc) =>
  new InvitationView({
    id: invitation.id,
    email: invitation.email,
    roleId: invitation.roleId,
    status: statusAt(invitation, now),
    expiresAt: invitation.expiresAt,
    createdAt: invitation.createdAt
  })

/** What the audit record shows of an invitation: never its token or the token's hash. */
export const invitationAuditFields = ["email", "roleId", "expiresAt"]

export const NewInvitation = Schema.Struct({ email: Email, roleId: RoleId })
export type NewInvitation = typeof NewInvitation.Type

export const InvitationPosition = Schema.Struct({ createdAt: Schema.DateTimeUtcFromMillis, id: InvitationId })
export type InvitationPosition = typeof InvitationPosition.Type
export const InvitationCursor = cursorOf(InvitationPosition)

/** Which invitations of the current organisation a page holds, oldest first. */
export interface InvitationQuery {
  readonly status?: InvitationStatus
  /** Only the invitations of this e-mail, as stored (lower-cased). */
  readonly email?: string
  /** The instant `expired` is judged at. */
  readonly now: DateTime.Utc
  readonly after?: InvitationPosition
}

export const AcceptInvitationInput = Schema.Struct({
  token: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256))),
  /** For an e-mail with no account yet: the new account's username. */
  username: Schema.optionalKey(Username),
  /** The new account's password, or the existing account's. */
  password: Schema.optionalKey(Schema.RedactedFromValue(Password)),
  /** With the password of an existing account that has TOTP: a code from its app, or a recovery code. */
  code: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 32))),
  /** Who is calling, for throttling (the client address behind the HTTP adapter). */
  client: Schema.String.check(Schema.isMaxLength(256))
})
export type AcceptInvitationInput = typeof AcceptInvitationInput.Type
