import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { authenticate, Unauthenticated } from "../../../core/index.ts"
import { Authentication, CurrentPrincipal } from "../api/middleware.ts"
import { toProblem } from "../to-problem.ts"

/**
 * The core's services are in the context every request starts from (see makeWebHandler), so they
 * are not provided to each request again: every provide copied the whole context, per request.
 */
const authenticateInRequest = authenticate as (
  ...args: Parameters<typeof authenticate>
) => Effect.Effect<
  Effect.Success<ReturnType<typeof authenticate>>,
  Effect.Error<ReturnType<typeof authenticate>>
>

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
  Effect.sync(() =>
    Authentication.of({
      bearer: (endpoint, { credential }) =>
        bearerOf(credential).pipe(
          Effect.flatMap(authenticateInRequest),
          Effect.mapError(toProblem),
          Effect.flatMap((principal) => Effect.provideService(endpoint, CurrentPrincipal, principal))
        )
    })
  )
)
