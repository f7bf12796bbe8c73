import { Schema } from "effect"
import { HttpApiError } from "effect/http-api"
import { code, declare } from "./problems.ts"

export class DomainUnverified extends HttpApiError.Problem<DomainUnverified>()(
  "DomainUnverified",
  declare("domain_unverified", 409, "The domain's TXT record does not hold its value"),
  { ...code("domain_unverified"), txtName: Schema.String, found: Schema.Array(Schema.String) }
) {}

export class DomainTaken extends HttpApiError.Problem<DomainTaken>()(
  "DomainTaken",
  declare("domain_taken", 409, "The domain is claimed already"),
  code("domain_taken")
) {}

export class SsoRefused extends HttpApiError.Problem<SsoRefused>()(
  "SsoRefused",
  declare("sso_refused", 403, "The single sign-on was refused"),
  code("sso_refused")
) {}

export class SsoRequired extends HttpApiError.Problem<SsoRequired>()(
  "SsoRequired",
  declare("sso_required", 403, "Sign in through the organisation's single sign-on"),
  code("sso_required")
) {}

export class SsoAccountConflict extends HttpApiError.Problem<SsoAccountConflict>()(
  "SsoAccountConflict",
  declare(
    "sso_account_conflict",
    409,
    "An account not provisioned here has this e-mail, or the identity is linked to another account"
  ),
  code("sso_account_conflict")
) {}

export class IdpUnavailable extends HttpApiError.Problem<IdpUnavailable>()(
  "IdpUnavailable",
  declare("idp_unavailable", 502, "The identity provider did not answer"),
  code("idp_unavailable")
) {}

export class IdpIncomplete extends HttpApiError.Problem<IdpIncomplete>()(
  "IdpIncomplete",
  declare("idp_incomplete", 422, "The draft connection's IdP is not set whole"),
  { ...code("idp_incomplete"), missing: Schema.Array(Schema.String) }
) {}
