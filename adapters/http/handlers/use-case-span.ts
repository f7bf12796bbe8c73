import { Context, Effect, Tracer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { operationIdOf } from "../edge/route-table.ts"

/**
 * Runs a use case in a span of its own, named for the operation (`team.addRole`), under the
 * request's span, when an operator traces and the request is recorded; otherwise as it is: a span
 * per call is paid only for what is exported.
 */
export const inUseCaseSpan = <A, E, R>(useCase: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) => {
    if (Context.getOrUndefined(fiber.context, Tracer.ParentSpan)?.sampled !== true) return useCase
    const route = Context.getOrUndefined(fiber.context, HttpRouter.RouteContext)
    const request = Context.getOrUndefined(fiber.context, HttpServerRequest.HttpServerRequest)
    const name =
      route === undefined || request === undefined
        ? undefined
        : operationIdOf(request.method, route.route.path)
    return Effect.withSpan(useCase, name ?? "use case")
  })
