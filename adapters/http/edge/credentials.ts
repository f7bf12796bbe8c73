import { Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { bearerOf, type Credentials, EdgeRequest, organizationOf } from "./routed.ts"

/** What the request presents: read by the edge, or here by handlers served without Roster's edge. */
export const credentialsOf = Effect.serviceOption(EdgeRequest).pipe(
  Effect.flatMap((edge) =>
    Option.isSome(edge)
      ? Effect.succeed(edge.value)
      : HttpServerRequest.HttpServerRequest.useSync(
          (request): Credentials => ({
            bearer: bearerOf(request.headers.authorization ?? null),
            organization: organizationOf(request.headers["roster-organization"] ?? null)
          })
        )
  )
)
