import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ChangeOwnPasswordInput, LogInInput, SignInMethods, SignUpInput } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import * as SsoProblem from "../sso-problems.ts"
import {
  AccessTokenView,
  LoginAnswerView,
  LoginView,
  MembershipView,
  MessageView,
  WhoAmIView
} from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication, ChecksPassword, IgnoresIdempotencyKey, OpenWithoutMfa } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

/** The client address is the server's to supply, never the caller's. */
export const LoginBody = LogInInput.mapFields(({ client: _, ...fields }) => fields)
export const SignUpBody = SignUpInput.mapFields(({ client: _, ...fields }) => fields)

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("login", "/login", {
      payload: jsonBody(LoginBody),
      success: LoginAnswerView,
      error: [
        Problem.Unauthorized,
        Problem.Forbidden,
        SsoProblem.SsoRequired,
        Problem.RateLimitedWithRetryAfter,
        Problem.BusyWithRetryAfter
      ]
    })
      .annotate(ChecksPassword, true)
      .annotateMerge(
        documented(
          "Sign in with a username or e-mail and a password; an account with TOTP is answered a challenge",
          {
            example: { username: "ada", password: "a long passphrase" },
            links: { WhoAmI: { operationId: "auth.me" } }
          }
        )
      ),
    HttpApiEndpoint.post("signup", "/signup", {
      payload: jsonBody(SignUpBody),
      success: LoginView,
      error: [
        Problem.NotFound,
        Problem.DuplicateEmail,
        Problem.DuplicateUsername,
        Problem.DuplicateSlug,
        Problem.RateLimitedWithRetryAfter,
        Problem.BusyWithRetryAfter
      ]
    })
      .annotate(ChecksPassword, true)
      .annotateMerge(
        documented(
          "Sign up: a new account, owner of a new organisation, signed in (with ROSTER_SIGNUP=open)",
          {
            example: {
              username: "ada",
              email: "ada@example.com",
              password: "a long passphrase",
              organization: { name: "Analytical Engines", slug: "analytical-engines" }
            },
            links: { WhoAmI: { operationId: "auth.me" } }
          }
        )
      ),
    HttpApiEndpoint.post("logout", "/logout", {
      success: Schema.Struct({ revoked: Schema.Boolean })
    })
      .middleware(Authentication)
      .annotate(OpenWithoutMfa, true)
      .annotateMerge(documented("End the calling session")),
    HttpApiEndpoint.get("signInMethods", "/methods", { success: SignInMethods }).annotateMerge(
      documented(
        "Tell what this deployment offers before sign-in: a password reset and e-mail confirmation by mail, passkeys and the origins they are used from, and whether it can keep secrets (TOTP, single sign-on)"
      )
    ),
    HttpApiEndpoint.get("me", "/me", { success: WhoAmIView })
      .middleware(Authentication)
      .annotate(OpenWithoutMfa, true)
      .annotateMerge(documented("Tell who the caller is")),
    HttpApiEndpoint.post("accessToken", "/token", {
      success: AccessTokenView,
      error: [Problem.SecretsKeyRequired]
    })
      .middleware(Authentication)
      .annotate(IgnoresIdempotencyKey, true)
      .annotateMerge(
        documented(
          "Get a short-lived signed access token (a JWT, RFC 9068) for the calling session or API key, for a product to verify offline against /.well-known/jwks.json"
        )
      ),
    HttpApiEndpoint.get("organizations", "/organizations", { success: Schema.Array(MembershipView) })
      .middleware(Authentication)
      .annotateMerge(documented("List the caller's memberships, with their organisations")),
    HttpApiEndpoint.post("changePassword", "/password", {
      payload: jsonBody(ChangeOwnPasswordInput),
      success: MessageView,
      error: [Problem.WrongPassword, Problem.RateLimitedWithRetryAfter, Problem.BusyWithRetryAfter]
    })
      .middleware(Authentication)
      .annotate(ChecksPassword, true)
      .annotateMerge(
        documented("Change one's own password, ending every other session", {
          example: { currentPassword: "a long passphrase", newPassword: "another long passphrase" }
        })
      )
  )
  .prefix("/api/v1/auth")
  .annotate(OpenApi.Description, "Sessions: sign in, sign out, who am I, one's own password") {}
