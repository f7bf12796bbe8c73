import { type DomainError, whyForbidden } from "../../core/index.ts"
import { ScimFailure } from "./scim-error.ts"

const unavailable = (detail: string) => new ScimFailure(503, detail, undefined, { "retry-after": "1" })

type Failure<K extends DomainError["_tag"]> = (error: Extract<DomainError, { _tag: K }>) => ScimFailure

const conflictMeanwhile = () => new ScimFailure(409, "The resource changed meanwhile: read it and try again")
const providerDown = () =>
  unavailable("A service Roster relies on did not answer; nothing was changed. Retry")

/**
 * Each domain error a SCIM request can meet, as SCIM answers it. What none can meet (billing,
 * signup, login, webhooks, single sign-on, the master key's questions) is not here: a bug if it
 * happens, answered as one. So a new domain error is SCIM's business only when SCIM meets it.
 */
const failures: { readonly [K in DomainError["_tag"]]?: Failure<K> } = {
  NotFound: (error) =>
    new ScimFailure(404, `No ${error.entity === "role" ? "group" : "user"} ${error.id} here`),
  // One answer for both, naming nothing: an account's existence is all a caller learns.
  DuplicateUsername: () => duplicateUser(),
  DuplicateEmail: () => duplicateUser(),
  DuplicateRoleKey: () => new ScimFailure(409, "A group with this displayName exists already", "uniqueness"),
  AlreadyMember: () =>
    new ScimFailure(409, "The person is a member of the organisation already", "uniqueness"),
  NoDefaultRole: () =>
    new ScimFailure(
      409,
      "The organisation has no role for members outside every group: set defaultRoleId, or keep a role holding team.read alone",
      "mutability"
    ),
  MissingField: (error) =>
    new ScimFailure(
      400,
      `A new user needs ${error.field === "email" ? "an e-mail address" : error.field}`,
      "invalidValue"
    ),
  Forbidden: (error) => new ScimFailure(403, whyForbidden[error.reason]),
  AccountShared: () =>
    new ScimFailure(
      403,
      "The account is a member of other organisations too: its username, e-mail and password stay as they are"
    ),
  LastOwner: () =>
    new ScimFailure(409, "The change would leave the organisation without an owner", "mutability"),
  RoleInUse: conflictMeanwhile,
  EditConflict: conflictMeanwhile,
  UnknownRole: conflictMeanwhile,
  Unauthenticated: () =>
    new ScimFailure(401, "A valid SCIM token is required", undefined, {
      "www-authenticate": 'Bearer realm="scim"'
    }),
  StoreUnavailable: () =>
    unavailable("The store is unavailable; nothing was changed that is not shown on a read. Retry"),
  HashingBusy: () => unavailable("The server is busy hashing passwords; retry"),
  RateLimited: (error) =>
    new ScimFailure(429, "Too many attempts; retry later", undefined, {
      "retry-after": String(error.retryAfterSeconds)
    }),
  ProviderUnavailable: providerDown,
  MailUnavailable: providerDown,
  SecretUnreadable: () =>
    unavailable("A secret is sealed under a key this deployment no longer holds; nothing was changed")
}

const duplicateUser = () =>
  new ScimFailure(409, "A user with this userName or e-mail address exists already", "uniqueness")

/** A use case's failure as SCIM answers it; none for what no SCIM request can meet. */
export const scimFailureOf = (error: DomainError): ScimFailure | undefined =>
  (failures[error._tag] as Failure<DomainError["_tag"]> | undefined)?.(error as never)

/** The domain errors SCIM answers itself, for the test that holds them to domain errors. */
export const scimAnswered: ReadonlySet<string> = new Set(Object.keys(failures))
