import type * as Domain from "../../core/index.ts"
import { whyForbidden } from "../../core/index.ts"
import { assembledProblem } from "./assembled-problem.ts"
import * as Problem from "./problems.ts"
import * as SsoProblem from "./sso-problems.ts"

const unauthorizedDetail: Record<Domain.Unauthenticated["reason"], string> = {
  missing: "A bearer token is required",
  invalid: "The bearer token is not valid",
  expired: "The session has expired"
}

/** Where each domain error is declared an HTTP problem: the core knows nothing of statuses. */
const problems = {
  DuplicateEmail: (e: Domain.DuplicateEmail) =>
    assembledProblem(Problem.DuplicateEmail, { detail: `A member with e-mail ${e.email} already exists` }),
  DuplicateUsername: (e: Domain.DuplicateUsername) =>
    assembledProblem(Problem.DuplicateUsername, {
      detail: `A member with username ${e.username} already exists`
    }),
  DuplicateRoleKey: (e: Domain.DuplicateRoleKey) =>
    assembledProblem(Problem.DuplicateRoleKey, { detail: `A role with key ${e.roleKey} already exists` }),
  DuplicateOrganizationSlug: (e: Domain.DuplicateOrganizationSlug) =>
    assembledProblem(Problem.DuplicateSlug, { detail: `An organisation with slug ${e.slug} already exists` }),
  EditConflict: (e: Domain.EditConflict) =>
    assembledProblem(Problem.EditConflict, {
      detail: `The ${e.entity} ${e.id} was changed by another request meanwhile; nothing changed, read it and retry`
    }),
  RoleInUse: (e: Domain.RoleInUse) =>
    assembledProblem(Problem.RoleInUse, {
      detail: `Role ${e.roleId} is held by at least one member; move or remove them first`
    }),
  PermissionInUse: (e: Domain.PermissionInUse) =>
    assembledProblem(Problem.PermissionInUse, {
      detail: `The permission ${e.key} is still granted (by roles, API keys or SCIM tokens); take it from them first`,
      holders: e.holders
    }),
  LastOwner: (_: Domain.LastOwner) =>
    assembledProblem(Problem.LastOwner, {
      detail:
        "The change would leave the team without an active owner (a member holding every permission); nothing changed"
    }),
  AccountShared: (e: Domain.AccountShared) =>
    assembledProblem(Problem.AccountShared, {
      detail: `The account ${e.memberId} belongs to another organisation too: only the operator changes it; its membership here is yours to change`
    }),
  AlreadyMember: (e: Domain.AlreadyMember) =>
    assembledProblem(Problem.AlreadyMember, {
      detail: `${e.email} is a member of this organisation already`
    }),
  InvitationInvalid: (_: Domain.InvitationInvalid) =>
    assembledProblem(Problem.InvitationInvalid, {
      detail: "The invitation is unknown, used, revoked or expired; ask for a new one"
    }),
  TokenInvalid: (_: Domain.TokenInvalid) =>
    assembledProblem(Problem.TokenInvalid, {
      detail: "The token is unknown, used, replaced by a newer one or expired; ask for a new link"
    }),
  MailOff: (e: Domain.MailOff) =>
    assembledProblem(Problem.NotFound, {
      detail: `This deployment sends no ${e.purpose === "password_reset" ? "password reset" : "verification"} mail: the operator has not set it up`
    }),
  MfaInvalid: (_: Domain.MfaInvalid) =>
    assembledProblem(Problem.MfaInvalid, {
      detail:
        "The code is wrong, or its time step was used already; or the challenge is unknown, spent or expired: sign in again"
    }),
  MfaRequired: (_: Domain.MfaRequired) =>
    assembledProblem(Problem.MfaRequired, {
      detail:
        "This organisation requires a second factor: enrol TOTP (POST /api/v1/auth/mfa/totp, then confirm it); until then only that, auth/me and logout are open"
    }),
  SecretsKeyRequired: (_: Domain.SecretsKeyRequired) =>
    assembledProblem(Problem.SecretsKeyRequired, {
      detail:
        "Set ROSTER_SECRETS_KEY (32 characters at least) so that the secrets it keeps (TOTP secrets, single sign-on keys and client secrets) are stored encrypted; nothing changed"
    }),
  SecretUnreadable: (_: Domain.SecretUnreadable) =>
    assembledProblem(Problem.SecretUnreadable, {
      detail:
        "A secret this needs is sealed under a key ROSTER_SECRETS_KEY no longer holds; the operator puts it back and runs rotate-secrets. Nothing changed"
    }),
  DestinationRefused: (e: Domain.DestinationRefused) =>
    assembledProblem(Problem.ValidationFailed, {
      detail:
        e.reason === "scheme"
          ? "Webhooks are sent over https only (ROSTER_WEBHOOK_ALLOW_PRIVATE=on lifts this, for tests and private networks)"
          : "Webhooks are never sent to loopback, private, link-local or unique-local addresses (ROSTER_WEBHOOK_ALLOW_PRIVATE=on lifts this, for tests and private networks)",
      errors: [
        {
          path: "body.url",
          message: e.reason === "scheme" ? "Expected an https URL" : "Expected a host with a public address"
        }
      ]
    }),
  WebhookLimit: (e: Domain.WebhookLimit) =>
    assembledProblem(Problem.WebhookLimit, {
      detail: `An organisation has at most ${e.limit} webhook endpoints: delete one first; nothing changed`
    }),
  WrongPassword: (_: Domain.WrongPassword) =>
    assembledProblem(Problem.WrongPassword, { detail: "The current password is wrong; nothing changed" }),
  AlreadySubscribed: (e: Domain.AlreadySubscribed) =>
    assembledProblem(Problem.AlreadySubscribed, {
      detail: `Plan ${e.planId} is already the current subscription`
    }),
  UnknownRole: (e: Domain.UnknownRole) =>
    assembledProblem(Problem.UnknownRole, { detail: `No role has id ${e.roleId}` }),
  UnknownPermission: (e: Domain.UnknownPermission) =>
    assembledProblem(Problem.UnknownPermission, {
      detail:
        typeof e.permission === "number"
          ? `No permission in the catalog has id ${e.permission}`
          : `No permission in the catalog has key ${JSON.stringify(e.permission)}`
    }),
  MemberRequired: (_: Domain.MemberRequired) =>
    assembledProblem(Problem.MemberRequired, {
      detail:
        "The master key (and the open mode) is no member: each of its checks names the member it asks about"
    }),
  UnknownPlan: (e: Domain.UnknownPlan) =>
    assembledProblem(Problem.UnknownPlan, { detail: `No plan has id ${e.planId}` }),
  PlanMismatch: (e: Domain.PlanMismatch) =>
    assembledProblem(Problem.PlanMismatch, {
      detail: `Plan ${e.planId} is not named ${JSON.stringify(e.planName)}`
    }),
  PriceMismatch: (e: Domain.PriceMismatch) =>
    assembledProblem(Problem.PriceMismatch, { detail: `${e.price} is not the price of plan ${e.planId}` }),
  NotFound: (e: Domain.NotFound) =>
    assembledProblem(Problem.NotFound, { detail: `No ${e.entity.replaceAll("_", " ")} ${e.id}` }),
  SubscriptionActive: (e: Domain.SubscriptionActive) =>
    assembledProblem(Problem.SubscriptionActive, {
      detail: `Subscription ${e.subscriptionId} is still open; cancel it before deleting the organisation`
    }),
  SignupClosed: (_: Domain.SignupClosed) =>
    assembledProblem(Problem.NotFound, { detail: "Signup is not open on this deployment" }),
  InvalidCredentials: (_: Domain.InvalidCredentials) =>
    assembledProblem(Problem.Unauthorized, { detail: "The username or password is wrong" }),
  Unauthenticated: (e: Domain.Unauthenticated) =>
    assembledProblem(Problem.Unauthorized, { detail: unauthorizedDetail[e.reason] }),
  Forbidden: (e: Domain.Forbidden) =>
    assembledProblem(Problem.Forbidden, {
      detail: whyForbidden[e.reason],
      ...(e.permission === undefined ? {} : { permission: e.permission })
    }),
  RateLimited: (e: Domain.RateLimited) =>
    assembledProblem(Problem.RateLimited, {
      detail: `Too many attempts; retry in ${e.retryAfterSeconds} s`,
      retryAfterSeconds: e.retryAfterSeconds
    }),
  HashingBusy: (e: Domain.HashingBusy) =>
    assembledProblem(Problem.Busy, {
      detail: "Every password hash this instance may run is running; the request changed nothing",
      retryAfterSeconds: e.retryAfterSeconds
    }),
  ProviderUnavailable: (_: Domain.ProviderUnavailable) =>
    assembledProblem(Problem.ProviderUnavailable, {
      detail: "The payment provider did not answer; nothing changed here and the request may be retried"
    }),
  MailUnavailable: (_: Domain.MailUnavailable) =>
    assembledProblem(Problem.MailUnavailable, {
      detail: "The mail server did not take the invitation, which is revoked; the request may be retried"
    }),
  MissingField: (e: Domain.MissingField) =>
    e.purpose === "passkey"
      ? assembledProblem(Problem.ValidationFailed, {
          detail: "Adding a passkey needs your password, unless you signed in within the last five minutes",
          errors: [{ path: "body.password", message: "Required: the account's password" }]
        })
      : e.purpose === "second_factor"
        ? assembledProblem(Problem.ValidationFailed, {
            detail: "A code from the authenticator app, a recovery code, or a passkey's answer is needed",
            errors: [{ path: "body.code", message: "Required: code or recoveryCode" }]
          })
        : e.purpose === "account_proof"
          ? assembledProblem(Problem.ValidationFailed, {
              detail: `The invitation's e-mail has an account: accepting needs its ${e.field}, or its session as Bearer`,
              errors: [
                {
                  path: `body.${e.field}`,
                  message:
                    e.field === "code"
                      ? "Required to accept for an account with TOTP: a code from its app or a recovery code, unless signed in as it"
                      : "Required to accept for an account that exists: its password, unless signed in as it"
                }
              ]
            })
          : assembledProblem(Problem.ValidationFailed, {
              detail: `A new account needs a ${e.field}`,
              errors: [
                {
                  path: `body.${e.field}`,
                  message: "Required to accept an invitation for an e-mail with no account"
                }
              ]
            }),
  ExpiryPassed: (e: Domain.ExpiryPassed) =>
    assembledProblem(Problem.ValidationFailed, {
      detail: `${e.field} must be in the future`,
      errors: [{ path: `body.${e.field}`, message: "Expected an instant after now" }]
    }),
  DomainUnverified: (e: Domain.DomainUnverified) =>
    assembledProblem(SsoProblem.DomainUnverified, {
      detail:
        e.found.length === 0
          ? `No TXT record at ${e.txtName}: publish the domain's txtValue there, then verify again`
          : `The TXT records at ${e.txtName} do not hold the domain's txtValue`,
      txtName: e.txtName,
      found: e.found
    }),
  DomainTaken: (e: Domain.DomainTaken) =>
    assembledProblem(SsoProblem.DomainTaken, {
      detail: `${e.domain} is claimed by this organisation already, or verified by another; nothing changed`
    }),
  SsoRefused: (_: Domain.SsoRefused) =>
    assembledProblem(SsoProblem.SsoRefused, {
      detail: "The identity provider's answer signs nobody in here"
    }),
  SsoRequired: (_: Domain.SsoRequired) =>
    assembledProblem(SsoProblem.SsoRequired, {
      detail:
        "This organisation requires single sign-on for this address: sign in through its identity provider"
    }),
  SsoAccountConflict: (e: Domain.SsoAccountConflict) =>
    assembledProblem(SsoProblem.SsoAccountConflict, {
      detail:
        e.linkedToAnother === true
          ? "This identity signs in as another account already, and a link is never moved; nothing changed"
          : "An account with this e-mail exists that was not provisioned here: an administrator links it (POST /api/v1/team/members/{id}/sso-link)"
    }),
  IdpUnavailable: (_: Domain.IdpUnavailable) =>
    assembledProblem(SsoProblem.IdpUnavailable, {
      detail: "The identity provider did not answer, or not as its protocol says; nothing changed"
    }),
  IdpIncomplete: (e: Domain.IdpIncomplete) =>
    assembledProblem(SsoProblem.IdpIncomplete, {
      detail: `A draft's IdP is set whole, its idpMetadataXml or its idpEntityId, idpSsoUrl and idpCertificate together; missing: ${e.missing.join(", ")}. Nothing changed`,
      missing: e.missing
    }),
  ConnectionInvalid: (e: Domain.ConnectionInvalid) =>
    assembledProblem(Problem.ValidationFailed, {
      detail: `The connection cannot work: ${e.message}`,
      errors: [{ path: `body.${e.field}`, message: e.message }]
    }),
  PasskeyLimit: (e: Domain.PasskeyLimit) =>
    assembledProblem(Problem.PasskeyLimit, {
      detail: `An account holds at most ${e.limit} passkeys: remove one first; nothing changed`
    }),
  PasskeyRefused: (_: Domain.PasskeyRefused) =>
    assembledProblem(Problem.ValidationFailed, {
      detail:
        "The passkey's response does not hold: another or a spent challenge, no user verification, an origin or RP ID not allowed, or a malformed attestation. Nothing was stored",
      errors: [
        { path: "body.response", message: "Expected the browser's response to this account's latest options" }
      ]
    }),
  PasskeysUnavailable: (_: Domain.PasskeysUnavailable) =>
    assembledProblem(Problem.PasskeysUnavailable, {
      detail:
        "Passkeys are off here: this deployment's public URL is an IP address, which passkeys cannot be bound to. The operator turns them on by setting ROSTER_WEBAUTHN_RP_ID (a domain name) and ROSTER_WEBAUTHN_ORIGINS"
    }),
  PasskeyOriginRefused: (e: Domain.PasskeyOriginRefused) =>
    assembledProblem(Problem.Unauthorized, {
      detail: `Passkeys here are used from ${e.allowedOrigins.join(", ")} only; this page is at another address. Open the console there and try again`
    }),
  ReturnRefused: (_: Domain.ReturnRefused) =>
    assembledProblem(Problem.ValidationFailed, {
      detail: "returnTo is neither a path of the console nor under a URL ROSTER_SSO_RETURN_URLS allows",
      errors: [{ path: "query.returnTo", message: "Expected /console… or an allowed URL" }]
    }),
  StoreUnavailable: (_: Domain.StoreUnavailable) =>
    assembledProblem(Problem.Unavailable, {
      detail: "The store did not answer; the request changed nothing and may be retried"
    })
}

/**
 * Every domain error but those only SCIM meets (the organisation's missing default role for a
 * provisioned member) is an HTTP problem: a new one (in `core/model/errors.ts`, from which the
 * union is derived) that is not fails to compile here.
 */
type Answered = Exclude<Domain.DomainError, Domain.NoDefaultRole>
problems satisfies { readonly [K in Answered["_tag"]]: (error: Extract<Answered, { _tag: K }>) => unknown }
/** Every domain error HTTP answers, by tag: for the test that holds each error to an answer. */
export const answeredOverHttp: ReadonlySet<string> = new Set(Object.keys(problems))

export type DomainError = Parameters<(typeof problems)[keyof typeof problems]>[0]

export type ProblemOf<E extends DomainError> = ReturnType<(typeof problems)[E["_tag"]]>

/** Translates a use case's failure into the problem of the same meaning, keeping the types precise. */
export const toProblem = <E extends DomainError>(error: E): ProblemOf<E> =>
  (problems[error._tag] as (error: E) => unknown)(error) as ProblemOf<E>
