import { Context, Exit, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { CurrentRequestId, CurrentRequestKey, identifyCaller } from "../../core/index.ts"
import type { KeyedRoute } from "./edge/idempotency.ts"
import type { EdgeOptions } from "./edge/options.ts"
import { type Credentials, EdgeRequest, IdentifiedCaller, type Routed } from "./edge/routed.ts"
import { tracingOf } from "./edge/tracing.ts"
import { type HttpServices, Services } from "./handed-services.ts"
import { rosterRoutes } from "./routes.ts"

/** Longer than every id the schemas accept, so those answer for what is too long. */
const maxPathIdLength = 512

/** The services built once (one store, one connection), and the router of the API over them. */
export const openRouter = async <E>(services: Layer.Layer<HttpServices, E>, options: EdgeOptions) => {
  const runtime = ManagedRuntime.make(services)
  const context = await runtime.context()
  const web = HttpRouter.toWebHandler(
    rosterRoutes(options).pipe(
      // Handed to the handlers as one entry, outside the context every request starts from: see Services.
      Layer.provide(Layer.succeed(Services)(context)),
      Layer.provide(HttpServer.layerServices),
      Layer.provideMerge(tracingOf(context))
    ),
    // Paths match exactly as published: case, trailing and doubled slashes included. A path id
    // longer than any id is refused as invalid (400) by the edge, not as an unknown route.
    {
      disableLogger: true,
      routerConfig: {
        caseSensitive: true,
        ignoreTrailingSlash: false,
        ignoreDuplicateSlashes: false,
        maxParamLength: maxPathIdLength
      }
    }
  )
  /** Who a request's credentials name, for what the edge decides before the router (a key's scope, metrics). */
  const callerOf = async ({ bearer, organization }: Credentials) => {
    if (bearer === "malformed") return undefined
    const exit = await runtime.runPromiseExit(identifyCaller(bearer, organization))
    return Exit.isSuccess(exit) ? exit.value : undefined
  }
  return { runtime, context, web, callerOf }
}

/** Hands a request to the router with what the edge knows of it, and the name of its key's claim. */
export const routerEntry =
  (
    web: {
      readonly handler: (
        request: Request,
        context: Context.Context<Services | EdgeRequest>
      ) => Promise<Response>
    },
    context: Context.Context<HttpServices>
  ) =>
  (record: Routed): KeyedRoute =>
  (request, { requestKey, caller } = {}) => {
    const edge = Context.make(Services, context).pipe(
      Context.add(EdgeRequest, record),
      Context.add(CurrentRequestId, record.requestId)
    )
    const keyed = requestKey === undefined ? edge : Context.add(edge, CurrentRequestKey, requestKey)
    return web.handler(request, caller === undefined ? keyed : Context.add(keyed, IdentifiedCaller, caller))
  }
