import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { OrganizationId, SessionId, SessionOrigin } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { Authentication, ReadsTarget } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

/** A session as its owner sees it: never its token nor the token's digest. */
export const SessionView = Schema.Struct({
  id: SessionId,
  organizationId: OrganizationId,
  createdAt: Schema.DateTimeUtc,
  lastSeenAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc,
  userAgent: SessionOrigin,
  address: SessionOrigin,
  current: Schema.Boolean
})

/** A person's own sessions, in every organisation of their account. */
export class SessionsApi extends HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.get("listSessions", "/sessions", { success: Schema.Array(SessionView) })
      .annotate(ReadsTarget, "session")
      .middleware(Authentication)
      .annotateMerge(
        documented("List the signed-in person's sessions, in every organisation, oldest first", {
          links: {
            EndSession: { operationId: "sessions.endSession", parameters: { id: "$response.body#/0/id" } }
          }
        })
      ),
    HttpApiEndpoint.delete("endSession", "/sessions/:id", {
      params: { id: SessionId },
      success: SessionView,
      error: Problem.NotFound
    })
      .middleware(Authentication)
      .annotateMerge(
        documented("End one of the signed-in person's sessions (the current one too)", {
          params: { id: "ses_0001a2b3c4d5e6f7a8b9c0d1" }
        })
      )
  )
  .prefix("/api/v1/auth")
  .annotate(OpenApi.Description, "One's own sessions: where one is signed in, and ending any of them") {}
