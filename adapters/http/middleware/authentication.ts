import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { authenticate, Unauthenticated } from "../../../core/index.ts"
import { Authentication, CurrentPrincipal } from "../api/middleware.ts"
import { runOn, Services } from "../services.ts"
import { toProblem } from "../to-problem.ts"

/**
 * No `Authorization` header is "no credentials". One that is not a non-empty bearer token is bad
 * credentials, refused even in open local mode: a client never silently acts with rights it did
 * not mean to use.
 */
const bearerOf = (credential: Redacted.Redacted<string>) =>
  HttpServerRequest.HttpServerRequest.use((request) => {
    if (Redacted.value(credential) !== "") return Effect.succeed(Option.some(credential))
    return request.headers.authorization === undefined
      ? Effect.succeedNone
      : Effect.fail(new Unauthenticated({ reason: "invalid" }))
  })

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const onServices = runOn(yield* Services)
    return Authentication.of({
      bearer: (endpoint, { credential }) =>
        bearerOf(credential).pipe(
          Effect.flatMap((bearer) => onServices(authenticate(bearer))),
          Effect.mapError(toProblem),
          Effect.flatMap((principal) => Effect.provideService(endpoint, CurrentPrincipal, principal))
        )
    })
  })
)
