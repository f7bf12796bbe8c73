import { Context, Exit, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import {
  AuditLog,
  CurrentRequestId,
  CurrentRequestKey,
  IdempotencyStore,
  identifyCaller
} from "../../core/index.ts"
import { makeScimHandler, scimPrefix } from "../scim/scim-handler.ts"
import { makeCors } from "./edge/cors.ts"
import { finishing, pathOfUrl } from "./edge/edge.ts"
import { isRefusal, makeGuards, toResponse } from "./edge/guards.ts"
import { type KeyedRoute, makeIdempotency } from "./edge/idempotency.ts"
import { makeMetricsEndpoint } from "./edge/metrics-endpoint.ts"
import type { EdgeOptions } from "./edge/options.ts"
import { makePasswordChecks } from "./edge/password-checks.ts"
import { requestIdOf } from "./edge/request-id.ts"
import { RequestLog } from "./edge/request-log.ts"
import { RequestsStarted } from "./edge/requests-started.ts"
import {
  bearerOf,
  type ConnectionInfo,
  type Credentials,
  EdgeRequest,
  IdentifiedCaller,
  organizationOf,
  type Routed
} from "./edge/routed.ts"
import { makeSessionCookie } from "./edge/session-cookie.ts"
import { tracingOf } from "./edge/tracing.ts"
import { rosterRoutes } from "./routes.ts"
import { type HttpServices, Services } from "./services.ts"

export type { ConnectionInfo, HttpServices }

export interface WebHandler {
  readonly handler: (request: Request, connection?: ConnectionInfo) => Promise<Response>
  /** Closes what the services opened (the store's connection); call after the server stopped. */
  readonly dispose: () => Promise<void>
}

/**
 * What the edge records of a request it takes in: its id (the client's, when sane), path,
 * connection, credentials (the `Authorization` header's, else the console's session cookie's).
 */
const routedFor = (
  request: Request,
  connection: ConnectionInfo | undefined,
  path = pathOfUrl(request.url),
  cookie?: string
): Routed => ({
  requestId: requestIdOf(request.headers.get("x-request-id")),
  path,
  connection,
  bearer:
    cookie === undefined
      ? bearerOf(request.headers.get("authorization"))
      : Option.some(Redacted.make(cookie)),
  organization: organizationOf(request.headers.get("roster-organization"))
})

const scimPaths = `${scimPrefix}/`

/** Longer than every id the schemas accept, so those answer for what is too long. */
const maxPathIdLength = 512

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
  const requests = Context.get(context, RequestsStarted)
  const guard = await makeGuards(options)
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
  const callerOf = async ({ bearer, organization }: Credentials) => {
    if (bearer === "malformed") return undefined
    const exit = await runtime.runPromiseExit(identifyCaller(bearer, organization))
    return Exit.isSuccess(exit) ? exit.value : undefined
  }
  const idempotency = await makeIdempotency(
    Context.get(context, IdempotencyStore),
    Context.get(context, AuditLog),
    callerOf
  )
  const passwordChecks = await makePasswordChecks(options.passwordChecksAtOnce)
  const metrics = options.metrics
  const finish = finishing(log, metrics?.recorder)
  const metricsEndpoint =
    metrics === undefined
      ? undefined
      : await makeMetricsEndpoint({
          render: metrics.render,
          token: metrics.token,
          openLocal: options.openLocal,
          isMasterKey: async (bearer) =>
            (await callerOf({ bearer, organization: undefined }))?.principal._tag === "Master"
        })
  /** Hands the request to the router with what the edge knows of it, and the name of its key's claim. */
  const route =
    (record: Routed): KeyedRoute =>
    (request, { requestKey, caller } = {}) => {
      const edge = Context.make(Services, context).pipe(
        Context.add(EdgeRequest, record),
        Context.add(CurrentRequestId, record.requestId)
      )
      const keyed = requestKey === undefined ? edge : Context.add(edge, CurrentRequestKey, requestKey)
      return web.handler(request, caller === undefined ? keyed : Context.add(keyed, IdentifiedCaller, caller))
    }
  const serve = (request: Request, record: Routed) =>
    idempotency.applies(request) ? idempotency.serve(request, record, route(record)) : route(record)(request)
  /** Hands the request on with its body read to its end and checked, or answers why it could not be. */
  const withBody = (
    checked: Request,
    record: Routed,
    next: (request: Request, record: Routed) => Promise<Response>
  ): Promise<Response> =>
    checked.body === null
      ? next(checked, record)
      : guard.readBody(checked).then((read) => (isRefusal(read) ? toResponse(read) : next(read, record)))
  const sessions = makeSessionCookie({ publicOrigin: options.publicOrigin })
  const answer: WebHandler["handler"] = (request, connection) => {
    requests.started++
    const started = performance.now()
    const path = pathOfUrl(request.url)
    const cookie = request.headers.has("authorization") ? undefined : sessions.tokenOf(request, path)
    const record = routedFor(request, connection, path, cookie === "foreign" ? undefined : cookie)
    const finished = finish(request, record, started)
    if (cookie === "foreign") return Promise.resolve(finished(toResponse(guard.crossSite)))
    const checked = guard.check(request)
    if (isRefusal(checked)) return Promise.resolve(finished(toResponse(checked)))
    if (cookie !== undefined || sessions.starts(path)) {
      if (sessions.asksAmiss(checked, path)) return Promise.resolve(finished(toResponse(guard.sessionHeader)))
      return routeChecked(checked, record).then((response) =>
        Promise.resolve(sessions.finish(checked, path, response)).then(finished)
      )
    }
    return routeChecked(checked, record).then(finished)
  }
  const routeChecked = (checked: Request, record: Routed): Promise<Response> => {
    const path = record.path
    if (metricsEndpoint?.serves(checked, path)) return metricsEndpoint.answer(record.bearer)
    if (path === scimPrefix || path.startsWith(scimPaths)) return withBody(checked, record, scim)
    return passwordChecks.admit(checked, () => withBody(checked, record, serve))
  }
  const scim = makeScimHandler(context, options.publicOrigin)
  const cors = makeCors(options.corsOrigins ?? [])
  /** A preflight answered at the edge, identified and logged like every other answer. */
  const preflight = (request: Request, connection: ConnectionInfo | undefined, answer: Response) =>
    finish(request, routedFor(request, connection), performance.now())(answer)
  return {
    handler:
      cors === undefined
        ? answer
        : (request, connection) =>
            cors.isPreflight(request)
              ? Promise.resolve(preflight(request, connection, cors.preflight(request)))
              : answer(request, connection).then((response) => cors.allow(request, response)),
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}
