import { Schema } from "effect"
import { HttpApiError, HttpApiSchema } from "effect/http-api"

/**
 * Every problem type gets its own URN, so that problems sharing a status stay distinguishable
 * (RFC 9457 `type`); `code` carries the same identity in the snake_case form clients switch on.
 */
export const declare = <const Code extends string, const Status extends number>(
  code: Code,
  status: Status,
  title: string
) => ({ type: `urn:roster:problem:${code}` as const, status, title })

export const code = <const Code extends string>(value: Code) => ({ code: Schema.tag(value) })

export const ProblemIssue = Schema.Struct({
  path: Schema.String,
  message: Schema.String
})

export class ValidationFailed extends HttpApiError.Problem<ValidationFailed>()(
  "ValidationFailed",
  declare("validation_failed", 400, "The request is not valid"),
  { ...code("validation_failed"), errors: Schema.Array(ProblemIssue) }
) {}

export class InvalidSignature extends HttpApiError.Problem<InvalidSignature>()(
  "InvalidSignature",
  declare("invalid_signature", 400, "The webhook signature is missing or invalid"),
  code("invalid_signature")
) {}

export class Unauthorized extends HttpApiError.Problem<Unauthorized>()(
  "Unauthorized",
  declare("unauthorized", 401, "Authentication is required"),
  code("unauthorized")
) {}

export class Forbidden extends HttpApiError.Problem<Forbidden>()(
  "Forbidden",
  declare("forbidden", 403, "Not allowed"),
  { ...code("forbidden"), permission: Schema.optionalKey(Schema.String) }
) {}

export class CrossSite extends HttpApiError.Problem<CrossSite>()(
  "CrossSite",
  declare("cross_site", 403, "Refused: a request from a site that is not allowed"),
  code("cross_site")
) {}

export class NotFound extends HttpApiError.Problem<NotFound>()(
  "NotFound",
  declare("not_found", 404, "Not found"),
  code("not_found")
) {}

export class MethodNotAllowed extends HttpApiError.Problem<MethodNotAllowed>()(
  "MethodNotAllowed",
  declare("method_not_allowed", 405, "Method not allowed"),
  code("method_not_allowed")
) {}

export class DuplicateEmail extends HttpApiError.Problem<DuplicateEmail>()(
  "DuplicateEmail",
  declare("duplicate_email", 409, "The e-mail address is already in use"),
  code("duplicate_email")
) {}

export class DuplicateUsername extends HttpApiError.Problem<DuplicateUsername>()(
  "DuplicateUsername",
  declare("duplicate_username", 409, "The username is already taken"),
  code("duplicate_username")
) {}

export class DuplicateSlug extends HttpApiError.Problem<DuplicateSlug>()(
  "DuplicateSlug",
  declare("duplicate_slug", 409, "The organisation slug is already taken"),
  code("duplicate_slug")
) {}

export class SubscriptionActive extends HttpApiError.Problem<SubscriptionActive>()(
  "SubscriptionActive",
  declare("subscription_active", 409, "The organisation still has an open subscription"),
  code("subscription_active")
) {}

export class DuplicateRoleKey extends HttpApiError.Problem<DuplicateRoleKey>()(
  "DuplicateRoleKey",
  declare("duplicate_role_key", 409, "The role key is already taken"),
  code("duplicate_role_key")
) {}

export class EditConflict extends HttpApiError.Problem<EditConflict>()(
  "EditConflict",
  declare("edit_conflict", 409, "Changed by another request meanwhile"),
  code("edit_conflict")
) {}

export class RequestInProgress extends HttpApiError.Problem<RequestInProgress>()(
  "RequestInProgress",
  declare("request_in_progress", 409, "A request with this Idempotency-Key is still running"),
  code("request_in_progress")
) {}

export class IdempotencyKeyReused extends HttpApiError.Problem<IdempotencyKeyReused>()(
  "IdempotencyKeyReused",
  declare("idempotency_key_reused", 422, "The Idempotency-Key was used for another request"),
  code("idempotency_key_reused")
) {}

export class RoleInUse extends HttpApiError.Problem<RoleInUse>()(
  "RoleInUse",
  declare("role_in_use", 409, "The role is held by a member"),
  code("role_in_use")
) {}

export class PermissionInUse extends HttpApiError.Problem<PermissionInUse>()(
  "PermissionInUse",
  declare("permission_in_use", 409, "The permission is still granted"),
  {
    ...code("permission_in_use"),
    holders: Schema.Struct({ roles: Schema.Number, apiKeys: Schema.Number, scimTokens: Schema.Number })
  }
) {}

export class LastOwner extends HttpApiError.Problem<LastOwner>()(
  "LastOwner",
  declare("last_owner", 409, "The team would be left without an owner"),
  code("last_owner")
) {}

export class AccountShared extends HttpApiError.Problem<AccountShared>()(
  "AccountShared",
  declare("account_shared", 403, "The account belongs to another organisation too"),
  code("account_shared")
) {}

export class AlreadyMember extends HttpApiError.Problem<AlreadyMember>()(
  "AlreadyMember",
  declare("already_member", 409, "The account is a member already"),
  code("already_member")
) {}

export class InvitationInvalid extends HttpApiError.Problem<InvitationInvalid>()(
  "InvitationInvalid",
  declare("invitation_invalid", 410, "The invitation is unknown, used, revoked or expired"),
  code("invitation_invalid")
) {}

export class TokenInvalid extends HttpApiError.Problem<TokenInvalid>()(
  "TokenInvalid",
  declare("token_invalid", 410, "The link's token is unknown, used, replaced or expired"),
  code("token_invalid")
) {}

export class MfaInvalid extends HttpApiError.Problem<MfaInvalid>()(
  "MfaInvalid",
  declare("mfa_invalid", 401, "The second factor is wrong or used, or the challenge is spent or expired"),
  code("mfa_invalid")
) {}

export class MfaRequired extends HttpApiError.Problem<MfaRequired>()(
  "MfaRequired",
  declare("mfa_required", 403, "The organisation requires a second factor: enrol TOTP first"),
  code("mfa_required")
) {}

export class SecretsKeyRequired extends HttpApiError.Problem<SecretsKeyRequired>()(
  "SecretsKeyRequired",
  declare("secrets_key_required", 409, "This deployment has no key to keep secrets encrypted"),
  code("secrets_key_required")
) {}

export class SecretUnreadable extends HttpApiError.Problem<SecretUnreadable>()(
  "SecretUnreadable",
  declare("secrets_key_required", 503, "A secret is sealed under a key this deployment no longer has"),
  code("secrets_key_required")
) {}

export class WrongPassword extends HttpApiError.Problem<WrongPassword>()(
  "WrongPassword",
  declare("wrong_password", 403, "The current password is wrong"),
  code("wrong_password")
) {}

export class AlreadySubscribed extends HttpApiError.Problem<AlreadySubscribed>()(
  "AlreadySubscribed",
  declare("already_subscribed", 409, "The plan is already subscribed"),
  code("already_subscribed")
) {}

export class PayloadTooLarge extends HttpApiError.Problem<PayloadTooLarge>()(
  "PayloadTooLarge",
  declare("payload_too_large", 413, "The request body is too large"),
  code("payload_too_large")
) {}

export class HeadersTooLarge extends HttpApiError.Problem<HeadersTooLarge>()(
  "HeadersTooLarge",
  declare("headers_too_large", 431, "The request's headers are too large"),
  code("headers_too_large")
) {}

export class UnsupportedMediaType extends HttpApiError.Problem<UnsupportedMediaType>()(
  "UnsupportedMediaType",
  declare("unsupported_media_type", 415, "The request body's encoding is not supported"),
  code("unsupported_media_type")
) {}

export class UnknownRole extends HttpApiError.Problem<UnknownRole>()(
  "UnknownRole",
  declare("unknown_role", 422, "No such role"),
  code("unknown_role")
) {}

export class UnknownPermission extends HttpApiError.Problem<UnknownPermission>()(
  "UnknownPermission",
  declare("unknown_permission", 422, "No such permission in the catalog"),
  code("unknown_permission")
) {}

export class MemberRequired extends HttpApiError.Problem<MemberRequired>()(
  "MemberRequired",
  declare("member_required", 422, "The check names no member, and the caller is none"),
  code("member_required")
) {}

export class UnknownPlan extends HttpApiError.Problem<UnknownPlan>()(
  "UnknownPlan",
  declare("unknown_plan", 422, "No such plan"),
  code("unknown_plan")
) {}

export class PlanMismatch extends HttpApiError.Problem<PlanMismatch>()(
  "PlanMismatch",
  declare("plan_mismatch", 422, "The plan name does not match the plan"),
  code("plan_mismatch")
) {}

export class PriceMismatch extends HttpApiError.Problem<PriceMismatch>()(
  "PriceMismatch",
  declare("price_mismatch", 422, "The price does not match the plan"),
  code("price_mismatch")
) {}

export class RateLimited extends HttpApiError.Problem<RateLimited>()(
  "RateLimited",
  declare("rate_limited", 429, "Too many attempts"),
  { ...code("rate_limited"), retryAfterSeconds: Schema.Int }
) {}

/** 429 with `Retry-After`, which the problem body alone cannot set. */
export const RateLimitedWithRetryAfter = RateLimited.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: RateLimited, headers: { "retry-after": Schema.String } },
    {
      decode: ({ body }) => body,
      encode: (problem) => ({ body: problem, headers: { "retry-after": String(problem.retryAfterSeconds) } })
    }
  )
)

export class Internal extends HttpApiError.Problem<Internal>()(
  "Internal",
  declare("internal", 500, "Internal error"),
  code("internal")
) {}

export class Unavailable extends HttpApiError.Problem<Unavailable>()(
  "Unavailable",
  declare("unavailable", 503, "The store is unavailable; try again"),
  code("unavailable")
) {}

export class OutcomeUnknown extends HttpApiError.Problem<OutcomeUnknown>()(
  "OutcomeUnknown",
  declare("outcome_unknown", 503, "The store stopped answering during a change; it may have taken effect"),
  code("outcome_unknown")
) {}

export class ProviderUnavailable extends HttpApiError.Problem<ProviderUnavailable>()(
  "ProviderUnavailable",
  declare("unavailable", 503, "The payment provider is unavailable; try again"),
  code("unavailable")
) {}

export class MailUnavailable extends HttpApiError.Problem<MailUnavailable>()(
  "MailUnavailable",
  declare("unavailable", 503, "The mail server is unavailable; try again"),
  code("unavailable")
) {}

export class Busy extends HttpApiError.Problem<Busy>()(
  "Busy",
  declare("unavailable", 503, "Too busy hashing passwords; try again shortly"),
  { ...code("unavailable"), retryAfterSeconds: Schema.Int }
) {}

/** 503 with `Retry-After`: the request was refused before it did anything. */
export const BusyWithRetryAfter = Busy.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: Busy, headers: { "retry-after": Schema.String } },
    {
      decode: ({ body }) => body,
      encode: (problem) => ({ body: problem, headers: { "retry-after": String(problem.retryAfterSeconds) } })
    }
  )
)

export class WebhookLimit extends HttpApiError.Problem<WebhookLimit>()(
  "WebhookLimit",
  declare("webhook_limit", 409, "The organisation has as many webhook endpoints as it may"),
  code("webhook_limit")
) {}

export class PasskeyLimit extends HttpApiError.Problem<PasskeyLimit>()(
  "PasskeyLimit",
  declare("passkey_limit", 409, "The account holds as many passkeys as it may"),
  code("passkey_limit")
) {}

export class PasskeysUnavailable extends HttpApiError.Problem<PasskeysUnavailable>()(
  "PasskeysUnavailable",
  declare("passkeys_unavailable", 409, "Passkeys are off in this deployment"),
  code("passkeys_unavailable")
) {}
