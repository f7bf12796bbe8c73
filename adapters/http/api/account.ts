import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  Member,
  RequestEmailChangeInput,
  RequestPasswordResetInput,
  ResetPasswordInput,
  VerifyEmailInput
} from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import * as SsoProblem from "../sso-problems.ts"
import { MessageView } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication, ChecksPassword } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

/** The client address is the server's to supply, never the caller's. */
export const ForgotPasswordBody = RequestPasswordResetInput.mapFields(({ client: _, ...fields }) => fields)

const Accepted = MessageView.pipe(HttpApiSchema.status(202))
const token = "rsr_Jq7T3xv0bS5nq3m9Qw2sVb8KpLc1dZr6fE4hYu0aTgM"

/** A person's own account: a forgotten password set again, an address proven, by links mailed to it. */
export class AccountApi extends HttpApiGroup.make("account")
  .add(
    HttpApiEndpoint.post("forgotPassword", "/password/forgot", {
      payload: jsonBody(ForgotPasswordBody),
      success: Accepted,
      error: [Problem.NotFound, Problem.RateLimitedWithRetryAfter]
    }).annotateMerge(
      documented(
        "Ask for a password reset link by mail: the same answer whether or not the address has an account",
        { example: { email: "ada@example.com" } }
      )
    ),
    HttpApiEndpoint.post("resetPassword", "/password/reset", {
      payload: jsonBody(ResetPasswordInput),
      success: MessageView,
      error: [Problem.TokenInvalid, SsoProblem.SsoRequired, Problem.BusyWithRetryAfter]
    })
      .annotate(ChecksPassword, true)
      .annotateMerge(
        documented("Set a new password with the token of a reset link; every session of the account ends", {
          example: { token, newPassword: "a new long passphrase" }
        })
      ),
    HttpApiEndpoint.post("requestEmailVerification", "/email/verify-request", {
      success: Accepted,
      error: [Problem.NotFound, Problem.RateLimitedWithRetryAfter, Problem.MailUnavailable]
    })
      .middleware(Authentication)
      .annotateMerge(documented("Mail the signed-in member a link that verifies their e-mail address")),
    HttpApiEndpoint.post("requestEmailChange", "/email/change", {
      payload: jsonBody(RequestEmailChangeInput),
      success: Accepted,
      error: [
        Problem.NotFound,
        Problem.WrongPassword,
        Problem.RateLimitedWithRetryAfter,
        Problem.BusyWithRetryAfter,
        SsoProblem.SsoRequired
      ]
    })
      .middleware(Authentication)
      .annotate(ChecksPassword, true)
      .annotateMerge(
        documented(
          "Move one's account to a new address, proving one's password: a link is mailed to the new address, and the account moves when it is followed",
          { example: { email: "ada@new.example", password: "a long passphrase" } }
        )
      ),
    HttpApiEndpoint.post("verifyEmail", "/email/verify", {
      payload: jsonBody(VerifyEmailInput),
      success: Member,
      error: [Problem.TokenInvalid, Problem.DuplicateEmail, SsoProblem.SsoRequired]
    }).annotateMerge(
      documented(
        "Prove an e-mail address with the token of a link mailed to it (a verification, or a new address asked for); no session needed",
        { example: { token: token.replace("rsr_", "rsv_") } }
      )
    )
  )
  .prefix("/api/v1/auth")
  .annotate(
    OpenApi.Description,
    "One's own account: password reset and e-mail verification by links mailed to the address"
  ) {}
