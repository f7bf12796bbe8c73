import { Effect, Layer, Option, Redacted } from "effect"
import { authenticate } from "../../../core/index.ts"
import { Authentication, CurrentPrincipal } from "../api/middleware.ts"
import { toProblem } from "../to-problem.ts"

type AuthenticateServices = Effect.Services<ReturnType<typeof authenticate>>

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const services = yield* Effect.context<AuthenticateServices>()
    return Authentication.of({
      bearer: (endpoint, { credential }) =>
        authenticate(Redacted.value(credential) === "" ? Option.none() : Option.some(credential)).pipe(
          Effect.provideContext(services),
          Effect.mapError(toProblem),
          Effect.flatMap((principal) => Effect.provideService(endpoint, CurrentPrincipal, principal))
        )
    })
  })
)
