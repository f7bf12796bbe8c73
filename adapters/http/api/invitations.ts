import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AcceptInvitationInput } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import * as SsoProblem from "../sso-problems.ts"
import { LoginView } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { ChecksPassword } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

/** The client address is the server's to supply, never the caller's. */
export const AcceptInvitationBody = AcceptInvitationInput.mapFields(({ client: _, ...fields }) => fields)

/** What an invitation's holder does with it; they need no session (an existing account may use its own). */
export class InvitationsApi extends HttpApiGroup.make("invitations")
  .add(
    HttpApiEndpoint.post("acceptInvitation", "/accept", {
      payload: jsonBody(AcceptInvitationBody),
      success: LoginView,
      error: [
        Problem.InvitationInvalid,
        Problem.Unauthorized,
        Problem.MfaInvalid,
        Problem.Forbidden,
        Problem.DuplicateEmail,
        Problem.DuplicateUsername,
        Problem.AlreadyMember,
        SsoProblem.SsoRequired,
        Problem.ValidationFailed,
        Problem.RateLimitedWithRetryAfter,
        Problem.BusyWithRetryAfter
      ]
    })
      .annotate(ChecksPassword, true)
      .annotateMerge(
        documented(
          "Accept an invitation: a new account (username and password), or an existing one (its password or its session as Bearer) joins, signed in",
          {
            example: { token: "rsi_…", username: "grace", password: "a long passphrase" },
            links: { WhoAmI: { operationId: "auth.me" } }
          }
        )
      )
  )
  .prefix("/api/v1/invitations")
  .annotate(OpenApi.Description, "Invitations, as their holders accept them") {}
