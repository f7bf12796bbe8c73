import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { authenticate, Unauthenticated } from "../../../core/index.ts"
import { Authentication, bearer, CurrentPrincipal } from "../api/middleware.ts"
import { runOn, Services } from "../services.ts"
import { toProblem } from "../to-problem.ts"

/**
 * No `Authorization` header is "no credentials". One that is not a non-empty bearer token is bad
 * credentials, refused even in open local mode: a client never silently acts with rights it did
 * not mean to use. The token is read by HttpApi's own parser for the bearer scheme.
 */
const bearerOf = Effect.flatMap(HttpApiBuilder.securityDecode(bearer), (credential) =>
  HttpServerRequest.HttpServerRequest.use((request) => {
    if (Redacted.value(credential) !== "") return Effect.succeed(Option.some(credential))
    return request.headers.authorization === undefined
      ? Effect.succeedNone
      : Effect.fail(new Unauthenticated({ reason: "invalid" }))
  })
)

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const onServices = runOn(yield* Services)
    const principal = bearerOf.pipe(
      Effect.flatMap((token) => onServices(authenticate(token))),
      Effect.mapError(toProblem)
    )
    return (endpoint) =>
      Effect.flatMap(principal, (caller) => Effect.provideService(endpoint, CurrentPrincipal, caller))
  })
)
