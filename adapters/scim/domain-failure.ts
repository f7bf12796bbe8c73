import type { NoDefaultRole } from "../../core/index.ts"
import type { DomainError } from "../http/to-problem.ts"
import { ScimFailure } from "./scim-error.ts"

const unavailable = (detail: string) => new ScimFailure(503, detail, undefined, { "retry-after": "1" })

/** A use case's failure as SCIM answers it. */
export const scimFailureOf = (error: DomainError | NoDefaultRole): ScimFailure => {
  switch (error._tag) {
    case "NotFound":
      return new ScimFailure(404, `No ${error.entity === "role" ? "group" : "user"} ${error.id} here`)
    // One answer for both, naming nothing: an account's existence is all a caller learns.
    case "DuplicateUsername":
    case "DuplicateEmail":
      return new ScimFailure(409, "A user with this userName or e-mail address exists already", "uniqueness")
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
      return new ScimFailure(403, `Refused: ${error.reason}`)
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
    default:
      return new ScimFailure(400, `Refused: ${error._tag}`)
  }
}
