import { Cause, Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { loggableCause } from "./loggable.ts"
import { rememberRequestId, requestIdOf } from "./request-id.ts"
import { RequestLog, type RequestLogEntry } from "./request-log.ts"
import { answerUnhandled } from "./unhandled.ts"

/** The status logged (never sent) for a request whose client hung up, as nginx logs it. */
const clientClosedRequest = 499

export const pathOf = (url: string) => {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

/** The headers every answer carries: its request id, and the challenge of a 401. */
export const identify = (response: HttpServerResponse.HttpServerResponse, requestId: string) => {
  const identified = HttpServerResponse.setHeader(response, "x-request-id", requestId)
  return response.status === 401
    ? HttpServerResponse.setHeader(identified, "www-authenticate", 'Bearer realm="roster"')
    : identified
}

export const logEntry = (
  requestId: string,
  method: string,
  path: string,
  started: number,
  status: number,
  error?: string
): RequestLogEntry => ({
  requestId,
  method,
  path,
  status,
  durationMs: Math.round((performance.now() - started) * 1000) / 1000,
  ...(error === undefined ? {} : { error })
})

/**
 * Around every routed request: its id, problems for what no route answered, and one log line.
 * It provides nothing per request (each provided service meant a context copy per request); the
 * checks that need no Effect run before, on the web request (guards.ts).
 */
export const edgeMiddleware = HttpRouter.middleware(
  Effect.gen(function* () {
    const log = yield* RequestLog
    return (app) =>
      HttpServerRequest.HttpServerRequest.use((request) => {
        const started = performance.now()
        const requestId = requestIdOf(request.headers["x-request-id"])
        // Only what may change something records its request; reads skip the bookkeeping.
        if (request.method !== "GET" && request.method !== "HEAD") rememberRequestId(request, requestId)
        const finish = (response: HttpServerResponse.HttpServerResponse, error?: string) => {
          log(logEntry(requestId, request.method, pathOf(request.url), started, response.status, error))
          return identify(response, requestId)
        }
        return app.pipe(
          Effect.map((response) => finish(response)),
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? // The client hung up: nobody reads an answer, but the request is still logged.
                Effect.andThen(
                  Effect.sync(() =>
                    log(
                      logEntry(requestId, request.method, pathOf(request.url), started, clientClosedRequest)
                    )
                  ),
                  Effect.failCause(cause)
                )
              : Effect.map(answerUnhandled(cause, request.method, pathOf(request.url)), (response) =>
                  finish(response, response.status >= 500 ? loggableCause(cause) : undefined)
                )
          )
        )
      })
  }),
  { global: true }
)
