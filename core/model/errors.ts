import { Schema } from "effect"
import { MemberId, PermissionId, RoleId } from "./ids.ts"
import { PermissionKey } from "./permission.ts"

export class DuplicateEmail extends Schema.TaggedError<DuplicateEmail>()("DuplicateEmail", {
  email: Schema.String
}) {}

export class DuplicateUsername extends Schema.TaggedError<DuplicateUsername>()("DuplicateUsername", {
  username: Schema.String
}) {}

export class DuplicateRoleKey extends Schema.TaggedError<DuplicateRoleKey>()("DuplicateRoleKey", {
  roleKey: Schema.String
}) {}

export class DuplicateOrganizationSlug extends Schema.TaggedError<DuplicateOrganizationSlug>()(
  "DuplicateOrganizationSlug",
  { slug: Schema.String }
) {}

export class UnknownRole extends Schema.TaggedError<UnknownRole>()("UnknownRole", {
  roleId: RoleId
}) {}

/**
 * A question about the caller asked by a caller that is no one (the master key, the open mode): it
 * names the member each check is about.
 */
export class MemberRequired extends Schema.TaggedError<MemberRequired>()("MemberRequired", {}) {}

/** No permission of the catalog, Roster's or the product's declared ones, has this id (a number) or key. */
export class UnknownPermission extends Schema.TaggedError<UnknownPermission>()("UnknownPermission", {
  permission: Schema.Union([Schema.Number, Schema.String])
}) {}

export class UnknownPlan extends Schema.TaggedError<UnknownPlan>()("UnknownPlan", {
  planId: Schema.String
}) {}

export class PlanMismatch extends Schema.TaggedError<PlanMismatch>()("PlanMismatch", {
  planId: Schema.String,
  planName: Schema.String
}) {}

export class PriceMismatch extends Schema.TaggedError<PriceMismatch>()("PriceMismatch", {
  planId: Schema.String,
  price: Schema.Number
}) {}

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  entity: Schema.Literals([
    "member",
    "role",
    "role_permission_detail",
    "permission",
    "subscription",
    "organization",
    "invitation",
    "scim_token",
    "api_key",
    "session",
    "totp",
    "webhook",
    "delivery",
    "domain",
    "sso_connection",
    "passkey",
    "signing_key"
  ]),
  id: Schema.String
}) {}

export class AlreadySubscribed extends Schema.TaggedError<AlreadySubscribed>()("AlreadySubscribed", {
  planId: Schema.String
}) {}

export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()("InvalidCredentials", {}) {}

/** A bearer token that is unknown, expired or revoked, or no token where one is required. */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  reason: Schema.Literals(["missing", "invalid", "expired"])
}) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  reason: Schema.Literals([
    "missing_permission",
    "inactive",
    "self_action",
    "own_role",
    "grant_exceeds_own",
    "revoke_exceeds_own",
    "role_exceeds_own",
    "no_password",
    "other_organization",
    "operator_only",
    "default_organization",
    "other_account",
    "owner_only",
    "key_exceeds_own",
    "own_key",
    "person_only",
    "no_account",
    "own_email",
    "no_token"
  ]),
  permission: Schema.optional(PermissionKey),
  permissionIds: Schema.optional(Schema.Array(PermissionId))
}) {}

/** Why each reason refuses, in words a caller acts on: what the HTTP and SCIM answers say. */
export const whyForbidden: Record<Forbidden["reason"], string> = {
  missing_permission: "The caller lacks the permission this operation needs",
  inactive: "The account, its membership or its role is not active",
  self_action:
    "A member cannot deactivate, demote, disable or remove themselves, nor set their password here",
  own_role: "A member cannot deactivate their own role or take permissions from it",
  grant_exceeds_own: "A member cannot grant a permission they do not hold",
  revoke_exceeds_own: "A member cannot remove a permission they do not hold",
  role_exceeds_own: "The role holds permissions the caller does not hold",
  no_password: "Only a signed-in member has a password of their own to change",
  other_organization: "A session acts on its own organisation only",
  operator_only: "Only the operator (the master key) may do this",
  default_organization: "The default organisation cannot be deleted",
  other_account: "The invitation is for another account than the signed-in one",
  owner_only:
    "Only a caller holding every permission of the catalog (an owner), or the master key, may do this",
  key_exceeds_own: "The API key holds permissions the caller does not hold",
  own_key: "An API key cannot change, rotate or revoke itself",
  person_only: "Only a signed-in person may do this: an API key is not a session",
  no_account:
    "Only a signed-in member has an account of their own: the master key and the open mode have none",
  own_email:
    "A member changes their own e-mail address only by proving the new one, with a link mailed to it",
  no_token:
    "Access tokens are made for a member's session or an API key: the master key, the open mode and SCIM tokens get none"
}

/** The record changed between the read a decision was based on and the write: retry. */
export class EditConflict extends Schema.TaggedError<EditConflict>()("EditConflict", {
  entity: Schema.Literals(["member"]),
  id: Schema.String
}) {}

/** A role some member still holds cannot be deleted: that member would be left without one. */
export class RoleInUse extends Schema.TaggedError<RoleInUse>()("RoleInUse", {
  roleId: RoleId
}) {}

/**
 * A product permission some explicit grant holds (a role's record, an API key's or a SCIM token's
 * list, in any organisation) is not retired: it would vanish from under them. Counts of each.
 */
export class PermissionInUse extends Schema.TaggedError<PermissionInUse>()("PermissionInUse", {
  key: Schema.String,
  holders: Schema.Struct({ roles: Schema.Number, apiKeys: Schema.Number, scimTokens: Schema.Number })
}) {}

/**
 * The change would leave the team with no owner (an active member of an active role holding every
 * permission) where it had one: nobody would be left able to administer it.
 */
export class LastOwner extends Schema.TaggedError<LastOwner>()("LastOwner", {}) {}

/** The caller's current password, required to set a new one, is not the one stored. */
export class WrongPassword extends Schema.TaggedError<WrongPassword>()("WrongPassword", {}) {}

export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  retryAfterSeconds: Schema.Int
}) {}

/**
 * Every password hash this instance may run at once is running and the queue behind them is full:
 * refused at once so that a login flood cannot stall every other request; retry shortly.
 */
export class HashingBusy extends Schema.TaggedError<HashingBusy>()("HashingBusy", {
  retryAfterSeconds: Schema.Int
}) {}

/** The store could not be reached or did not answer; the operation may be retried. */
export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {}) {}

/** The payment provider did not answer in time, or answered that it cannot now; nothing changed. */
export class ProviderUnavailable extends Schema.TaggedError<ProviderUnavailable>()(
  "ProviderUnavailable",
  {}
) {}

/** The organisation still pays for (or waits for) a subscription: cancel it before deleting the organisation. */
export class SubscriptionActive extends Schema.TaggedError<SubscriptionActive>()("SubscriptionActive", {
  subscriptionId: Schema.String
}) {}

/** Self-serve signup is not open on this deployment. */
export class SignupClosed extends Schema.TaggedError<SignupClosed>()("SignupClosed", {}) {}

/** An administrator changed an account that also belongs to another organisation: only its membership is theirs. */
export class AccountShared extends Schema.TaggedError<AccountShared>()("AccountShared", {
  memberId: MemberId
}) {}

/** The account is a member of the organisation already. */
export class AlreadyMember extends Schema.TaggedError<AlreadyMember>()("AlreadyMember", {
  email: Schema.String
}) {}

/** An invitation token that is unknown, used, revoked or expired: one answer for all. */
export class InvitationInvalid extends Schema.TaggedError<InvitationInvalid>()("InvitationInvalid", {}) {}

/** The mail server did not take the message; what was to be sent is undone. */
export class MailUnavailable extends Schema.TaggedError<MailUnavailable>()("MailUnavailable", {}) {}

/**
 * The request left out a field it needs here: to make a new account, or to prove the account it
 * names (accepting an invitation into an account that exists takes that account's password).
 */
export class MissingField extends Schema.TaggedError<MissingField>()("MissingField", {
  field: Schema.Literals(["username", "password", "email", "code"]),
  purpose: Schema.Literals(["new_account", "account_proof", "second_factor", "passkey"])
}) {}

/**
 * A member provisioned without a role needs the organisation's default one, and there is none: no
 * `defaultRoleId`, and no role holding `team.read` alone.
 */
export class NoDefaultRole extends Schema.TaggedError<NoDefaultRole>()("NoDefaultRole", {}) {}

/** An expiry that is not in the future: what it would make could never be used. */
export class ExpiryPassed extends Schema.TaggedError<ExpiryPassed>()("ExpiryPassed", {
  field: Schema.Literals(["expiresAt"])
}) {}

/** A mailed token (a password reset, a verification) that is unknown, used, replaced or expired: one answer for all. */
export class TokenInvalid extends Schema.TaggedError<TokenInvalid>()("TokenInvalid", {}) {}

/** This deployment sends no mail of that purpose (no SMTP server, or no link to put in it). */
export class MailOff extends Schema.TaggedError<MailOff>()("MailOff", {
  purpose: Schema.Literals(["password_reset", "email_verification", "email_change"])
}) {}

/** The organisation requires a second factor, and the caller's account has none yet: enrol TOTP first. */
export class MfaRequired extends Schema.TaggedError<MfaRequired>()("MfaRequired", {}) {}

/** A second factor that is wrong, used already, or a challenge that is unknown, spent or expired: one answer. */
export class MfaInvalid extends Schema.TaggedError<MfaInvalid>()("MfaInvalid", {}) {}

/** A secret must be kept encrypted and this deployment has no key to do it with (`ROSTER_SECRETS_KEY`). */
export class SecretsKeyRequired extends Schema.TaggedError<SecretsKeyRequired>()("SecretsKeyRequired", {}) {}

/**
 * A secret kept sealed that no key of `ROSTER_SECRETS_KEY` opens: a key that sealed it was removed
 * before `rotate-secrets` sealed it again. Nothing changed; the operator puts the key back.
 */
export class SecretUnreadable extends Schema.TaggedError<SecretUnreadable>()("SecretUnreadable", {}) {}

/**
 * A webhook URL that may not be sent to: not `https`, or a host that is (or resolves to) a
 * loopback, private, link-local or unique-local address.
 */
export class DestinationRefused extends Schema.TaggedError<DestinationRefused>()("DestinationRefused", {
  reason: Schema.Literals(["scheme", "private_address"])
}) {}

/** The organisation has as many webhook endpoints as it may. */
export class WebhookLimit extends Schema.TaggedError<WebhookLimit>()("WebhookLimit", {
  limit: Schema.Int
}) {}

/** An account holds as many passkeys as it may: remove one first. */
export class PasskeyLimit extends Schema.TaggedError<PasskeyLimit>()("PasskeyLimit", {
  limit: Schema.Int
}) {}

/** A passkey's registration response that does not hold: another challenge, no user verification, an origin not allowed. */
export class PasskeyRefused extends Schema.TaggedError<PasskeyRefused>()("PasskeyRefused", {}) {}

/**
 * This deployment has passkeys off: its public URL is an address, which no passkey is bound to, and
 * no RP ID was set (`ROSTER_WEBAUTHN_RP_ID`).
 */
export class PasskeysUnavailable extends Schema.TaggedError<PasskeysUnavailable>()(
  "PasskeysUnavailable",
  {}
) {}

/**
 * A passkey used on a page whose origin is not one this deployment allows: the person is on another
 * address than the console's (`127.0.0.1` for `localhost`), which the origins it allows name.
 */
export class PasskeyOriginRefused extends Schema.TaggedError<PasskeyOriginRefused>()("PasskeyOriginRefused", {
  allowedOrigins: Schema.Array(Schema.String)
}) {}
