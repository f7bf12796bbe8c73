import { type DomainError, whyForbidden } from "../../core/index.ts"
import { ScimFailure } from "./scim-error.ts"

const unavailable = (detail: string) => new ScimFailure(503, detail, undefined, { "retry-after": "1" })

/**
 * A use case's failure as SCIM answers it; a domain error this does not name fails to compile. None
 * for what no SCIM request can meet (billing, signup, login): a bug if it does, answered as one.
 */
export const scimFailureOf = (error: DomainError): ScimFailure | undefined => {
  switch (error._tag) {
    case "NotFound":
      return new ScimFailure(404, `No ${error.entity === "role" ? "group" : "user"} ${error.id} here`)
    // One answer for both, naming nothing: an account's existence is all a caller learns.
    case "DuplicateUsername":
    case "DuplicateEmail":
      return new ScimFailure(409, "A user with this userName or e-mail address exists already", "uniqueness")
    case "DuplicateRoleKey":
      return new ScimFailure(409, "A group with this displayName exists already", "uniqueness")
    case "AlreadyMember":
      return new ScimFailure(409, "The person is a member of the organisation already", "uniqueness")
    case "NoDefaultRole":
      return new ScimFailure(
        409,
        "The organisation has no role for members outside every group: set defaultRoleId, or keep a role holding team.read alone",
        "mutability"
      )
    case "MissingField":
      return new ScimFailure(
        400,
        `A new user needs ${error.field === "email" ? "an e-mail address" : error.field}`,
        "invalidValue"
      )
    case "Forbidden":
      return new ScimFailure(403, whyForbidden[error.reason])
    case "AccountShared":
      return new ScimFailure(
        403,
        "The account is a member of other organisations too: its username, e-mail and password stay as they are"
      )
    case "LastOwner":
      return new ScimFailure(409, "The change would leave the organisation without an owner", "mutability")
    case "RoleInUse":
    case "EditConflict":
    case "UnknownRole":
      return new ScimFailure(409, "The resource changed meanwhile: read it and try again")
    case "Unauthenticated":
      return new ScimFailure(401, "A valid SCIM token is required", undefined, {
        "www-authenticate": 'Bearer realm="scim"'
      })
    case "StoreUnavailable":
      return unavailable("The store is unavailable; nothing was changed that is not shown on a read. Retry")
    case "HashingBusy":
      return unavailable("The server is busy hashing passwords; retry")
    case "RateLimited":
      return new ScimFailure(429, "Too many attempts; retry later", undefined, {
        "retry-after": String(error.retryAfterSeconds)
      })
    case "ProviderUnavailable":
    case "MailUnavailable":
      return unavailable("A service Roster relies on did not answer; nothing was changed. Retry")
    case "DuplicateOrganizationSlug":
    case "UnknownPermission":
    case "UnknownPlan":
    case "PlanMismatch":
    case "PriceMismatch":
    case "AlreadySubscribed":
    case "InvalidCredentials":
    case "WrongPassword":
    case "SubscriptionActive":
    case "SignupClosed":
    case "InvitationInvalid":
    case "TokenInvalid":
    case "MailOff":
    case "MfaInvalid":
    case "MfaRequired":
    case "SecretsKeyRequired":
      return undefined
  }
}
