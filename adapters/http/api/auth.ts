import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ChangeOwnPasswordInput, LogInInput } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { LoginView, MessageView, WhoAmIView } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication, ChecksPassword } from "./middleware.ts"

/** The client address is the server's to supply, never the caller's. */
export const LoginBody = LogInInput.mapFields(({ client: _, ...fields }) => fields)

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("login", "/login", {
      payload: jsonBody(LoginBody),
      success: LoginView,
      error: [
        Problem.Unauthorized,
        Problem.Forbidden,
        Problem.RateLimitedWithRetryAfter,
        Problem.BusyWithRetryAfter
      ]
    }).annotate(ChecksPassword, true),
    HttpApiEndpoint.post("logout", "/logout", {
      success: Schema.Struct({ revoked: Schema.Boolean })
    }).middleware(Authentication),
    HttpApiEndpoint.get("me", "/me", { success: WhoAmIView }).middleware(Authentication),
    HttpApiEndpoint.post("changePassword", "/password", {
      payload: jsonBody(ChangeOwnPasswordInput),
      success: MessageView,
      error: [Problem.WrongPassword, Problem.RateLimitedWithRetryAfter, Problem.BusyWithRetryAfter]
    })
      .middleware(Authentication)
      .annotate(ChecksPassword, true)
  )
  .prefix("/api/v1/auth") {}
