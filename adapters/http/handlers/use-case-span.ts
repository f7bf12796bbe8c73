import { Context, Effect, Tracer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { operationIdOf } from "../edge/route-table.ts"

/**
 * Runs a use case in a span of its own, named for the operation (`team.addRole`), under the
 * request's span, when an operator traces; otherwise as it is: the request has no span to hang
 * it under, and a span per call is not paid for.
 */
export const inUseCaseSpan = <A, E, R>(useCase: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) => {
    if (Context.getOrUndefined(fiber.context, Tracer.ParentSpan) === undefined) return useCase
    const route = Context.getOrUndefined(fiber.context, HttpRouter.RouteContext)
    const request = Context.getOrUndefined(fiber.context, HttpServerRequest.HttpServerRequest)
    const name =
      route === undefined || request === undefined
        ? undefined
        : operationIdOf(request.method, route.route.path)
    return Effect.withSpan(useCase, name ?? "use case")
  })
