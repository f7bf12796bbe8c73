import { HttpApi, OpenApi } from "effect/http-api"
import { AccountApi } from "./account.ts"
import { AdminApi } from "./admin.ts"
import { ApiKeysApi } from "./api-keys.ts"
import { AuditApi } from "./audit.ts"
import { AuthApi } from "./auth.ts"
import { AuthorizationApi } from "./authorization.ts"
import { declareBearerSecurity } from "./bearer-security.ts"
import { HealthApi } from "./health.ts"
import { InvitationsApi } from "./invitations.ts"
import { MfaApi } from "./mfa.ts"
import { RequestProblems } from "./middleware.ts"
import { OrganizationsApi } from "./organizations.ts"
import { PasskeysApi } from "./passkeys.ts"
import { PaymentsApi } from "./payments.ts"
import { declarePermissions } from "./permission-openapi.ts"
import { PermissionsApi } from "./permissions.ts"
import { PricingApi } from "./pricing.ts"
import { SessionsApi } from "./sessions.ts"
import { SsoApi } from "./sso.ts"
import { SsoBrowserApi, SsoSignInApi } from "./sso-sign-in.ts"
import { TeamApi } from "./team.ts"
import { WebhooksApi } from "./webhooks.ts"
import { WellKnownApi } from "./well-known.ts"

export const openApiPath = "/api/v1/openapi.json"

/** The API reference a person reads in the browser, rendered from the same document. */
export const docsPath = "/api/v1/docs"

// Typed in full, so that RosterApi's type does not depend on this function's, which refers to it.
const securityAndPermissions: OpenApi.Transform["Service"] = (document) =>
  declarePermissions(RosterApi, declareBearerSecurity(RosterApi, document))

export class RosterApi extends HttpApi.make("roster")
  .add(TeamApi)
  .add(PricingApi)
  .add(AdminApi)
  .add(AuthApi)
  .add(AuthorizationApi)
  .add(AccountApi)
  .add(SessionsApi)
  .add(MfaApi)
  .add(PasskeysApi)
  .add(InvitationsApi)
  .add(PaymentsApi)
  .add(AuditApi)
  .add(OrganizationsApi)
  .add(ApiKeysApi)
  .add(PermissionsApi)
  .add(WebhooksApi)
  .add(SsoApi)
  .add(SsoBrowserApi)
  .add(SsoSignInApi)
  .add(HealthApi)
  .add(WellKnownApi)
  .middleware(RequestProblems)
  // Report every problem of a request at once, not only the first one found.
  .annotate(HttpApi.ParseOptions, { errors: "all" })
  // Fields the contract does not name are refused, as the published schemas say (never stored).
  .annotate(HttpApi.PayloadParseOptions, { errors: "all", onExcessProperty: "error" })
  // What a handler answers was built and checked by the core: checking it again on the way out
  // cost a tenth of a read's time.
  .annotate(HttpApi.SuccessParseOptions, { disableChecks: true })
  .annotate(HttpApi.ErrorParseOptions, { disableChecks: true })
  .annotate(OpenApi.Transform, securityAndPermissions)
  .annotateMerge(
    OpenApi.annotations({
      title: "Roster",
      version: "1",
      description: "Team, role, subscription and account administration. Errors are RFC 9457 problem details."
    })
  ) {}
