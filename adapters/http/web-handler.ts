import { Context, type Layer, Option, Redacted } from "effect"
import { openRouter, routerEntry } from "./api-router.ts"
import { makeDirectReads } from "./direct-reads.ts"
import { dispatcher } from "./dispatch.ts"
import { makeCors } from "./edge/cors.ts"
import { answerFinisher } from "./edge/edge.ts"
import { isRefusal, makeGuards, toResponse } from "./edge/guards.ts"
import type { EdgeOptions } from "./edge/options.ts"
import { requestIdOf } from "./edge/request-id.ts"
import { RequestLog } from "./edge/request-log.ts"
import { RequestsStarted } from "./edge/requests-started.ts"
import { bearerOf, type ConnectionInfo, organizationOf, type Routed } from "./edge/routed.ts"
import { makeSessionCookie } from "./edge/session-cookie.ts"
import { pathOfUrl } from "./edge/url-parts.ts"
import type { HttpServices } from "./handed-services.ts"

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

/**
 * The whole HTTP service as a web-standard handler, for any server: Bun, Deno, Node through
 * `toNodeHandler`, or a test calling it directly. Each request is recorded, checked at the edge
 * (its cookie, its headers, its body), dispatched, and its answer finished (logged, counted,
 * stamped); a preflight is answered at the edge.
 */
export const makeWebHandler = async <E>(
  services: Layer.Layer<HttpServices, E>,
  options: EdgeOptions
): Promise<WebHandler> => {
  const { runtime, context, web, callerOf } = await openRouter(services, options)
  const requests = Context.get(context, RequestsStarted)
  const finish = answerFinisher(Context.get(context, RequestLog), options.metrics?.recorder)
  const guard = await makeGuards(options)
  const direct = await makeDirectReads(runtime, context, options)
  const dispatch = await dispatcher(context, options, routerEntry(web, context), guard, callerOf, direct)
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
    if (cookie === undefined && !sessions.starts(path)) return dispatch(checked, record).then(finished)
    if (sessions.asksAmiss(checked, path)) return Promise.resolve(finished(toResponse(guard.sessionHeader)))
    return dispatch(checked, record).then((response) =>
      Promise.resolve(sessions.finish(checked, path, response)).then(finished)
    )
  }
  const cors = makeCors(options.corsOrigins ?? [])
  return {
    handler:
      cors === undefined
        ? answer
        : (request, connection) =>
            cors.isPreflight(request)
              ? Promise.resolve(
                  finish(request, routedFor(request, connection), performance.now())(cors.preflight(request))
                )
              : answer(request, connection).then((response) => cors.allow(request, response)),
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}
