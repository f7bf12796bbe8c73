import { Cause, Context, Effect, Option, Tracer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { loggableCause } from "../../log/loggable.ts"
import type { MetricsRecorder } from "../../metrics/recorder.ts"
import { handOverBody } from "./body-in-hand.ts"
import { countAnswer } from "./count-answer.ts"
import type { RequestLog } from "./request-log.ts"
import { literalRouteRefusing } from "./route-table.ts"
import { EdgeRequest, type Routed } from "./routed.ts"
import { answerUnhandled, methodNotAllowed } from "./unhandled.ts"
import { pathOf } from "./url-parts.ts"

/**
 * Notes the request's span (the framework's, only when an operator traces) for its log line, when
 * the trace is recorded: a lookup that finds nothing otherwise. An unrecorded span's ids are never
 * asked for, so they are never made.
 */
const traced = <A, E, R>(app: Effect.Effect<A, E, R>) =>
  Effect.withFiber((fiber) => {
    const span = Context.getOrUndefined(fiber.context, Tracer.ParentSpan)
    if (span?.sampled !== true) return app
    return Effect.flatMap(Effect.serviceOption(EdgeRequest), (routed) => {
      if (Option.isSome(routed)) routed.value.span = { traceId: span.traceId, spanId: span.spanId }
      return app
    })
  })

/**
 * Around every routed request: the body the edge read handed over, and problems for what no route
 * answered (404, 405, 413, 500). What every answer gets (its id, its log line) is added outside
 * Effect, by `answerFinisher`.
 */
export const edgeMiddleware = HttpRouter.middleware(
  (app) =>
    Effect.catchCause(
      HttpServerRequest.HttpServerRequest.use((request) => {
        handOverBody(request)
        const path = pathOf(request.url)
        const literal = literalRouteRefusing(request.method, path)
        return literal === undefined ? traced(app) : methodNotAllowed(path, literal)
      }),
      (cause) =>
        // The client hung up: nobody reads an answer; the framework answers 499, which is logged.
        Cause.hasInterruptsOnly(cause)
          ? Effect.failCause(cause)
          : HttpServerRequest.HttpServerRequest.use((request) =>
              Effect.flatMap(answerUnhandled(cause, request.method, pathOf(request.url)), (response) =>
                EdgeRequest.useSync((routed) => {
                  if (response.status >= 500) routed.failure = loggableCause(cause)
                  return response
                })
              )
            )
    ),
  { global: true }
)

/**
 * What every answer gets on its way out, whoever gave it (a route, the edge's guards, the
 * idempotency layer): the request's id, the challenge of a 401, headers that keep browsers from
 * sniffing types and leaking the URL onward, no caching unless the answer says otherwise (answers
 * carry tokens and personal data), one log line, and, when an operator turned metrics on, its count.
 */
export const answerFinisher =
  (log: RequestLog["Service"], metrics: MetricsRecorder | undefined) =>
  (request: Request, routed: Routed, started: number) =>
  (response: Response): Response => {
    const error = response.status >= 500 ? routed.failure : undefined
    const requestId = routed.requestId
    const path = routed.path
    const durationMs = performance.now() - started
    log({
      requestId,
      method: request.method,
      path,
      status: response.status,
      durationMs: Math.round(durationMs * 1000) / 1000,
      ...(error === undefined ? {} : { error }),
      ...routed.span
    })
    if (metrics !== undefined) countAnswer(metrics, request, path, response, durationMs / 1000)
    const headers = response.headers
    headers.set("x-request-id", requestId)
    headers.set("x-content-type-options", "nosniff")
    headers.set("referrer-policy", "no-referrer")
    if (!headers.has("cache-control")) headers.set("cache-control", "no-store")
    if (response.status === 401) headers.set("www-authenticate", 'Bearer realm="roster"')
    return response
  }
