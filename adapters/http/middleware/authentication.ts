import { Context, Effect, Layer, Option, type Redacted } from "effect"
import type { HttpApiEndpoint } from "effect/http-api"
import {
  CurrentOrganization,
  defaultOrganizationId,
  identifyCaller,
  MfaRequired,
  owesSecondFactor,
  Unauthenticated
} from "../../../core/index.ts"
import { Authentication, CurrentPrincipal, OpenWithoutMfa } from "../api/middleware.ts"
import { credentialsOf } from "../edge/credentials.ts"
import { type Caller, IdentifiedCaller } from "../edge/routed.ts"
import { runOn, Services } from "../handed-services.ts"
import * as Problem from "../problems.ts"
import { toProblem } from "../to-problem.ts"

const malformedBearer = toProblem(new Unauthenticated({ reason: "invalid" }))

const emptyOrganization = new Problem.ValidationFailed({
  detail:
    "The Roster-Organization header is empty: name an organisation by its id or slug, or leave the header out",
  errors: [{ path: "headers.roster-organization", message: "Expected an organisation's id or slug" }]
})

const identify = (bearer: Option.Option<Redacted.Redacted<string>>, organization: string | undefined) =>
  Effect.mapError(identifyCaller(bearer, organization), toProblem)
type Identified = ReturnType<typeof identify>

/**
 * The caller and the organisation the request acts on: the one the edge already identified, or
 * else the one its credentials identify now. No `Authorization` header is "no credentials"; one
 * that is not a bearer token is bad credentials, refused even in open local mode: a client never
 * silently acts with rights it did not mean to use.
 */
const fromCredentials = Effect.flatMap(
  credentialsOf,
  ({
    bearer,
    organization
  }): Effect.Effect<
    Caller,
    Effect.Error<Identified> | typeof malformedBearer | typeof emptyOrganization,
    Effect.Services<Identified>
  > => {
    if (bearer === "malformed") return Effect.fail(malformedBearer)
    if (organization === "") return Effect.fail(emptyOrganization)
    return identify(bearer, organization)
  }
)

const callerOf = Effect.flatMap(Effect.serviceOption(IdentifiedCaller), (identified) =>
  Option.isSome(identified) ? Effect.succeed(identified.value) : fromCredentials
)

const mfaRequired = toProblem(new MfaRequired())

/** Whether a session waiting for its second factor may call the endpoint (see `OpenWithoutMfa`). */
const openWithoutMfa = (endpoint: HttpApiEndpoint.Top) => Context.get(endpoint.annotations, OpenWithoutMfa)

export const authenticationLayer = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const onServices = runOn(yield* Services)
    return (handler, { endpoint }) =>
      onServices(
        callerOf.pipe(
          Effect.filterOrFail(
            ({ principal }) => !owesSecondFactor(principal) || openWithoutMfa(endpoint),
            () => mfaRequired
          ),
          Effect.flatMap(({ principal, organizationId }) => {
            const asCaller = Effect.provideService(handler, CurrentPrincipal, principal)
            // The default organisation is the reference's own value: providing it again would cost a copy of the context.
            return organizationId === defaultOrganizationId
              ? asCaller
              : Effect.provideService(asCaller, CurrentOrganization, organizationId)
          })
        )
      )
  })
)
