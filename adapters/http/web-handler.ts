import { Context, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { IdempotencyStore } from "../../core/index.ts"
import { type ConnectionInfo, rememberConnection } from "./edge/client-address.ts"
import { logEntry } from "./edge/edge.ts"
import { type EdgeOptions, isRefusal, makeGuards, type Refusal, toResponse } from "./edge/guards.ts"
import { makeIdempotency } from "./edge/idempotency.ts"
import { requestIdOf } from "./edge/request-id.ts"
import { RequestLog } from "./edge/request-log.ts"
import { rosterRoutes } from "./routes.ts"
import { type HttpServices, Services } from "./services.ts"

export type { ConnectionInfo, HttpServices }

export interface WebHandler {
  readonly handler: (request: Request, connection?: ConnectionInfo) => Promise<Response>
  /** Closes what the services opened (the store's connection); call after the server stopped. */
  readonly dispose: () => Promise<void>
}

/** Longer than every id the schemas accept, so those answer for what is too long. */
const maxPathIdLength = 512

// The handlers' types ask for Services per request; they have it from the context they were built in.
const noRequestServices = Context.empty() as Context.Context<Services>

/**
 * The whole HTTP service as a web-standard handler, for any server: Bun, Deno, or a test calling it
 * directly. The services are built once (one store, one connection) and handed to every request.
 */
export const makeWebHandler = async <E>(
  services: Layer.Layer<HttpServices, E>,
  options: EdgeOptions
): Promise<WebHandler> => {
  const runtime = ManagedRuntime.make(services)
  const context = await runtime.context()
  const log = Context.get(context, RequestLog)
  const guard = await makeGuards(options)
  const web = HttpRouter.toWebHandler(
    rosterRoutes(options).pipe(
      // Handed to the handlers as one entry, outside the context every request starts from: see Services.
      Layer.provide([Layer.succeed(Services)(context), Layer.succeed(RequestLog)(log)]),
      Layer.provide(HttpServer.layerServices)
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
  const idempotency = await makeIdempotency(Context.get(context, IdempotencyStore), options)
  /** An answer the edge gives itself, without routing: identified and logged like the others. */
  const answerAtEdge = (request: Request, response: Response, started: number) => {
    const requestId = requestIdOf(request.headers.get("x-request-id"))
    log(logEntry(requestId, request.method, new URL(request.url).pathname, started, response.status))
    response.headers.set("x-request-id", requestId)
    return response
  }
  const refuse = (request: Request, refusal: Refusal, started: number) =>
    answerAtEdge(request, toResponse(refusal), started)
  const route = (request: Request, connection: ConnectionInfo | undefined) => {
    rememberConnection(request, connection)
    return web.handler(request, noRequestServices)
  }
  const serve = (request: Request, connection: ConnectionInfo | undefined, started: number) =>
    idempotency.applies(request)
      ? idempotency.serve(request, connection, route, (response) => answerAtEdge(request, response, started))
      : route(request, connection)
  return {
    handler: (request, connection) => {
      const started = performance.now()
      const checked = guard.check(request)
      if (isRefusal(checked)) return Promise.resolve(refuse(request, checked, started))
      if (checked.body === null) return serve(checked, connection, started)
      return guard
        .readBody(checked)
        .then((read) => (isRefusal(read) ? refuse(request, read, started) : serve(read, connection, started)))
    },
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}
