import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SsoCodeInput, SsoConnectionId, StartSsoInput } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import * as SsoProblem from "../sso-problems.ts"
import { LoginView } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { documented } from "./operation-docs.ts"

/** A redirect: the browser goes where `Location` says. */
const Redirect = HttpApiSchema.Empty(302)

/** What an identity provider sends back to the OIDC callback: its code and our state, or its error. */
const OidcCallbackQuery = {
  state: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(512))),
  code: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(4096))),
  error: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(256))),
  error_description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2048))),
  iss: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2048))),
  session_state: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(512)))
}

/** A SAML response, posted by the browser from the IdP's page (HTTP-POST binding). */
const SamlPost = Schema.Struct({
  SAMLResponse: Schema.String.check(Schema.isBetweenLength(1, 1_000_000)),
  RelayState: Schema.String.check(Schema.isBetweenLength(1, 512))
}).pipe(HttpApiSchema.asFormUrlEncoded())

/**
 * Signing in through an organisation's identity provider: a browser's round trip (start, the
 * provider, back to Roster, on to `returnTo` with a one-time code or the console's cookie). Public:
 * the provider's signed answer, bound to the browser that started, is what authenticates. Browsers
 * call these, not clients (see `ssoSignInUrl`).
 */
export class SsoBrowserApi extends HttpApiGroup.make("ssoBrowser")
  .add(
    HttpApiEndpoint.get("startSso", "/start", {
      query: StartSsoInput.fields,
      success: Redirect,
      error: [Problem.ValidationFailed, Problem.RateLimitedWithRetryAfter]
    }).annotateMerge(
      documented(
        "Start a single sign-on for an organisation (slug or id), a person's e-mail (by its verified domain) or a connection: redirects to the IdP; at the end, to returnTo (a console path, or a URL ROSTER_SSO_RETURN_URLS allows) with ?code= or ?error="
      )
    ),
    HttpApiEndpoint.get("oidcCallback", "/oidc/callback", {
      query: OidcCallbackQuery,
      success: Redirect
    }).annotateMerge(documented("Where an OIDC provider returns the browser (the connection's redirectUri)")),
    HttpApiEndpoint.post("samlAcs", "/saml/acs", {
      payload: SamlPost,
      success: HttpApiSchema.Empty(303),
      error: Problem.UnsupportedMediaType
    }).annotateMerge(
      documented("Where a SAML IdP posts its response (the connection's acsUrl, HTTP-POST binding)")
    ),
    HttpApiEndpoint.get("samlReturn", "/saml/return", {
      query: { state: Schema.String.check(Schema.isMaxLength(512)) },
      success: Redirect
    }).annotateMerge(
      documented(
        "Where the browser completes a SAML sign-in, its response accepted, with the cookie it started with"
      )
    ),
    HttpApiEndpoint.get("samlMetadata", "/saml/:id/metadata", {
      params: { id: SsoConnectionId },
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "application/samlmetadata+xml" })),
      error: Problem.NotFound
    }).annotateMerge(
      documented(
        "Roster's SP metadata for a SAML connection: its entity id, ACS URL and signing certificate",
        {
          params: { id: "sso_0001a2b3c4d5e6f7a8b9c0d1" }
        }
      )
    )
  )
  .prefix("/api/v1/sso")
  .annotate(
    OpenApi.Description,
    "Single sign-on through an organisation's identity provider (OIDC or SAML 2.0), in a browser"
  ) {}

/** The code a sign-in ended with, exchanged for a session: what a product's back end calls. */
export class SsoSignInApi extends HttpApiGroup.make("ssoSignIn")
  .add(
    HttpApiEndpoint.post("exchangeSsoCode", "/token", {
      payload: jsonBody(SsoCodeInput),
      success: LoginView,
      error: [SsoProblem.SsoRefused, Problem.Forbidden, Problem.RateLimitedWithRetryAfter]
    }).annotateMerge(
      documented(
        "Exchange a single sign-on's code (one use, 60 s) for a session: what a product's back end does with the code its page received",
        { example: { code: "rso_…" } }
      )
    )
  )
  .prefix("/api/v1/sso")
  .annotate(OpenApi.Description, "Single sign-on's code, exchanged for a session") {}
