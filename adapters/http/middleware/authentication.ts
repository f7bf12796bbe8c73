import { Effect, Layer, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { authenticate, Unauthenticated } from "../../../core/index.ts"
import { Authentication, CurrentPrincipal } from "../api/middleware.ts"
import { EdgeRequest, bearerOf as parseBearer } from "../edge/routed.ts"
import { runOn, Services } from "../services.ts"
import { toProblem } from "../to-problem.ts"

/**
 * No `Authorization` header is "no credentials". One that is not a bearer token is bad
 * credentials, refused even in open local mode: a client never silently acts with rights it did
 * not mean to use. The edge read the header (`bearerOf`).
 */
const bearerOf = Effect.serviceOption(EdgeRequest).pipe(
  Effect.flatMap((edge) =>
    Option.isSome(edge)
      ? Effect.succeed(edge.value.bearer)
      : // Handlers served without Roster's edge read the header themselves, the same way.
        HttpServerRequest.HttpServerRequest.useSync((request) =>
          parseBearer(request.headers.authorization ?? null)
        )
  ),
  Effect.flatMap((bearer) =>
    bearer === "malformed" ? Effect.fail(new Unauthenticated({ reason: "invalid" })) : Effect.succeed(bearer)
  )
)

export const authenticationLayer = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const onServices = runOn(yield* Services)
    const principal = bearerOf.pipe(Effect.flatMap(authenticate), Effect.mapError(toProblem))
    return (endpoint) =>
      onServices(
        Effect.flatMap(principal, (caller) => Effect.provideService(endpoint, CurrentPrincipal, caller))
      )
  })
)
