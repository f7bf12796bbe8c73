import { Schema } from "effect"

/** The domain's TXT record does not hold its value (yet): what DNS answered is named. */
export class DomainUnverified extends Schema.TaggedError<DomainUnverified>()("DomainUnverified", {
  domain: Schema.String,
  txtName: Schema.String,
  /** The TXT values found at `txtName`, none when there is no such record. */
  found: Schema.Array(Schema.String)
}) {}

/** Another organisation holds the domain verified. */
export class DomainTaken extends Schema.TaggedError<DomainTaken>()("DomainTaken", {
  domain: Schema.String
}) {}

/**
 * A single sign-on refused: the answer of the identity provider did not prove anyone (a state,
 * nonce, code or assertion that is wrong, spent or stale; a signature that does not hold), or whom
 * it proved may not join this organisation. `reason` is for the audit record and logs; a browser is
 * told the code alone.
 */
export class SsoRefused extends Schema.TaggedError<SsoRefused>()("SsoRefused", {
  reason: Schema.Literals([
    "state",
    "answer",
    "replayed",
    "unsolicited",
    "no_email",
    "foreign_domain",
    "connection",
    "inactive",
    "deprovisioned",
    "above_connection"
  ])
}) {}

/** The member's e-mail is in a domain the organisation verified, and it requires single sign-on. */
export class SsoRequired extends Schema.TaggedError<SsoRequired>()("SsoRequired", {}) {}

/**
 * An account not provisioned here has the e-mail the provider asserted: it is never linked by
 * e-mail. Or (`linkedToAnother`) the identity an administrator links signs in as another account
 * already: a link is never moved.
 */
export class SsoAccountConflict extends Schema.TaggedError<SsoAccountConflict>()("SsoAccountConflict", {
  linkedToAnother: Schema.optionalKey(Schema.Boolean)
}) {}

/** The identity provider could not be reached, or answered what is not its protocol. */
export class IdpUnavailable extends Schema.TaggedError<IdpUnavailable>()("IdpUnavailable", {}) {}

/** A connection's settings that cannot work: metadata that is not XML, a certificate that is not one. */
export class ConnectionInvalid extends Schema.TaggedError<ConnectionInvalid>()("ConnectionInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

/** A `returnTo` that is neither a path of the console nor a URL the deployment allows. */
export class ReturnRefused extends Schema.TaggedError<ReturnRefused>()("ReturnRefused", {}) {}

/**
 * A draft's IdP set in part: a draft signs people in only once its IdP is whole (its metadata, or
 * its entity id, sign-in URL and certificate together), so a part of it is refused, naming what lacks.
 */
export class IdpIncomplete extends Schema.TaggedError<IdpIncomplete>()("IdpIncomplete", {
  missing: Schema.Array(Schema.String)
}) {}
