import { Effect, Layer, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import {
  CurrentOrganization,
  defaultOrganizationId,
  identifyCaller,
  Unauthenticated
} from "../../../core/index.ts"
import { Authentication, CurrentPrincipal } from "../api/middleware.ts"
import { EdgeRequest, organizationOf, bearerOf as parseBearer } from "../edge/routed.ts"
import { runOn, Services } from "../services.ts"
import { toProblem } from "../to-problem.ts"

/**
 * No `Authorization` header is "no credentials". One that is not a bearer token is bad
 * credentials, refused even in open local mode: a client never silently acts with rights it did
 * not mean to use. The edge read the header (`bearerOf`).
 */
const credentialsOf = Effect.serviceOption(EdgeRequest).pipe(
  Effect.flatMap((edge) =>
    Option.isSome(edge)
      ? Effect.succeed(edge.value)
      : // Handlers served without Roster's edge read the headers themselves, the same way.
        HttpServerRequest.HttpServerRequest.useSync((request) => ({
          bearer: parseBearer(request.headers.authorization ?? null),
          organization: organizationOf(request.headers["roster-organization"] ?? null)
        }))
  ),
  Effect.flatMap(({ bearer, organization }) =>
    bearer === "malformed"
      ? Effect.fail(new Unauthenticated({ reason: "invalid" }))
      : Effect.succeed({ bearer, organization })
  )
)

/** The caller and the organisation the request acts on. */
const callerOf = credentialsOf.pipe(
  Effect.flatMap(({ bearer, organization }) => identifyCaller(bearer, organization))
)

export const authenticationLayer = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const onServices = runOn(yield* Services)
    const caller = callerOf.pipe(Effect.mapError(toProblem))
    return (endpoint) =>
      onServices(
        Effect.flatMap(caller, ({ principal, organizationId }) => {
          const asCaller = Effect.provideService(endpoint, CurrentPrincipal, principal)
          // The default organisation is the reference's own value: providing it again would cost a copy of the context.
          return organizationId === defaultOrganizationId
            ? asCaller
            : Effect.provideService(asCaller, CurrentOrganization, organizationId)
        })
      )
  })
)
