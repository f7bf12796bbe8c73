import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AuthorizationResult, AuthorizeInput } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication, IgnoresIdempotencyKey } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

export const AuthorizeView = Schema.Struct({
  results: Schema.Array(AuthorizationResult).annotate({
    description: "One answer per check, in the order asked"
  })
}).annotate({ identifier: "roster/Authorization" })

/**
 * The product's question, asked on its own requests: may this member do that, here? It needs no
 * permission about the caller itself and `team.read` about another member, so it declares none.
 */
export class AuthorizationApi extends HttpApiGroup.make("authorization")
  .add(
    HttpApiEndpoint.post("authorize", "/authorize", {
      payload: jsonBody(AuthorizeInput),
      success: AuthorizeView,
      error: [Problem.UnknownPermission, Problem.MemberRequired]
    })
      .middleware(Authentication)
      .annotate(IgnoresIdempotencyKey, true)
      .annotateMerge(
        documented(
          "Ask whether the caller, or a member of its organisation (team.read), holds permissions: Roster's or the product's, 1 to 100 checks; an unknown permission fails the whole request (422 unknown_permission)",
          {
            // About the caller alone, so that it needs no permission, as the document says.
            example: { checks: [{ permission: "team.read" }, { permission: 5 }] }
          }
        )
      )
  )
  .prefix("/api/v1")
  .annotate(OpenApi.Description, "Questions a product asks about its own permissions") {}
