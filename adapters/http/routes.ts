import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, OpenApi } from "effect/http-api"
import { documentedApi } from "./api/openapi-document.ts"
import { docsPath, openApiPath, RosterApi } from "./api/roster-api.ts"
import { consolePath, consoleRoutes, isConsoleBuilt } from "./console-page.ts"
import { docsPageRoute } from "./docs-page.ts"
import { edgeMiddleware } from "./edge/edge.ts"
import type { EdgeOptions } from "./edge/options.ts"
import { AccountHandlers } from "./handlers/account.ts"
import { AdminHandlers } from "./handlers/admin.ts"
import { ApiKeysHandlers } from "./handlers/api-keys.ts"
import { AuditHandlers } from "./handlers/audit.ts"
import { authHandlers } from "./handlers/auth.ts"
import { AuthorizationHandlers } from "./handlers/authorization.ts"
import { HealthHandlers } from "./handlers/health.ts"
import { InvitationsHandlers } from "./handlers/invitations.ts"
import { MfaHandlers } from "./handlers/mfa.ts"
import { OrganizationsHandlers } from "./handlers/organizations.ts"
import { PasskeysHandlers } from "./handlers/passkeys.ts"
import { PaymentsHandlers } from "./handlers/payments.ts"
import { PermissionsHandlers } from "./handlers/permissions.ts"
import { PricingHandlers } from "./handlers/pricing.ts"
import { SessionsHandlers } from "./handlers/sessions.ts"
import { ssoHandlers } from "./handlers/sso.ts"
import { SsoSignInHandlers, ssoBrowserHandlers } from "./handlers/sso-sign-in.ts"
import { TeamHandlers } from "./handlers/team.ts"
import { wellKnownHandlers } from "./handlers/tokens.ts"
import { WebhooksHandlers } from "./handlers/webhooks.ts"
import { authenticationLayer } from "./middleware/authentication.ts"
import { requestProblemsLayer } from "./middleware/request-problems.ts"
import { openApiOnDemand } from "./openapi-on-demand.ts"

/**
 * The OpenAPI document of the mode the server runs in, the API reference page rendered from the
 * same document, the console when it is built, and the root pointing to the console, or to the
 * reference without one.
 */
const documentationRoutes = (options: EdgeOptions) => {
  const api = documentedApi(options)
  const body = openApiOnDemand(() => OpenApi.fromApi(api))
  const directory = options.consoleDirectory
  const built = directory !== undefined && isConsoleBuilt(directory) ? directory : undefined
  const toStart = HttpServerResponse.redirect(built === undefined ? docsPath : consolePath, { status: 302 })
  const routes = Layer.mergeAll(
    HttpRouter.add(
      "GET",
      openApiPath,
      Effect.map(body, (text) => HttpServerResponse.text(text, { contentType: "application/json" }))
    ),
    docsPageRoute(api, !options.openLocal),
    // Someone who opens the service's address in a browser is shown where to start.
    HttpRouter.add("GET", "/", Effect.succeed(toStart))
  )
  return built === undefined ? routes : Layer.merge(routes, consoleRoutes(built))
}

/** Every route: the API's handlers, its documentation, and the edge around them. */
export const rosterRoutes = (options: EdgeOptions) =>
  HttpApiBuilder.layer(RosterApi).pipe(
    Layer.provide([
      TeamHandlers,
      PricingHandlers,
      AdminHandlers,
      authHandlers(options),
      AuthorizationHandlers,
      AccountHandlers,
      SessionsHandlers,
      MfaHandlers,
      PasskeysHandlers,
      InvitationsHandlers,
      AuditHandlers,
      OrganizationsHandlers,
      ApiKeysHandlers,
      PermissionsHandlers,
      WebhooksHandlers,
      ssoHandlers(options),
      ssoBrowserHandlers(options),
      SsoSignInHandlers,
      PaymentsHandlers,
      HealthHandlers,
      wellKnownHandlers(options)
    ]),
    Layer.provide([authenticationLayer, requestProblemsLayer]),
    Layer.merge(documentationRoutes(options)),
    // No HttpIncomingMessage.MaxBodySize: the edge read every body under the limit already (guards.ts),
    // and the framework's limited read of it again (a stream reader per request) cost a POST ~8 µs.
    Layer.merge(edgeMiddleware)
  )
