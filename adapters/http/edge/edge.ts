import { ByteSize, Cause, Effect, Option } from "effect"
import {
  Headers,
  HttpIncomingMessage,
  HttpMethod,
  HttpRouter,
  HttpServerRequest,
  HttpServerResponse
} from "effect/http"
import * as Problem from "../problems.ts"
import { isLocalRequest } from "./local-request.ts"
import { loggableCause } from "./loggable.ts"
import { ClientAddress, RequestLog } from "./request-log.ts"
import { answerUnhandled, respond } from "./unhandled.ts"

export interface EdgeOptions {
  /** Request bodies above this many bytes are refused with 413 before they are read. */
  readonly maxBodyBytes: number
  /**
   * Open local mode: no credentials needed, so only requests a local client addressed to a
   * loopback host are served; a web page elsewhere (cross-site, DNS rebinding) is refused.
   */
  readonly openLocal: boolean
}

/** The status logged (never sent) for a request whose client hung up, as nginx logs it. */
const clientClosedRequest = 499

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/

const pathOf = (url: string) => {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

/**
 * Wraps every request: request id, body limit, JSON whatever the content type says, problems for
 * what no route answered, and one log line. Kept to plain combinators: it runs on every request.
 */
export const edgeMiddleware = (options: EdgeOptions) =>
  HttpRouter.middleware(
    Effect.gen(function* () {
      const log = yield* RequestLog
      const maxBodySize = ByteSize.bytes(options.maxBodyBytes)
      return (app) =>
        HttpServerRequest.HttpServerRequest.use((request) =>
          ClientAddress.use((client) => {
            const started = performance.now()
            const method = request.method
            const path = pathOf(request.url)
            const incomingId = request.headers["x-request-id"]
            const requestId =
              incomingId !== undefined && requestIdPattern.test(incomingId) ? incomingId : crypto.randomUUID()
            const record = (status: number, error?: string) =>
              log({
                requestId,
                method,
                path,
                status,
                durationMs: Math.round((performance.now() - started) * 1000) / 1000,
                ...(error === undefined ? {} : { error })
              })
            const finish = (response: HttpServerResponse.HttpServerResponse, error?: string) => {
              record(response.status, error)
              const identified = HttpServerResponse.setHeader(response, "x-request-id", requestId)
              return response.status === 401
                ? HttpServerResponse.setHeader(identified, "www-authenticate", 'Bearer realm="roster"')
                : identified
            }
            if (Number(request.headers["content-length"]) > options.maxBodyBytes) {
              return Effect.map(
                respond(
                  new Problem.PayloadTooLarge({
                    detail: `The request body exceeds ${options.maxBodyBytes} bytes`
                  })
                ),
                (response) => finish(HttpServerResponse.setHeader(response, "connection", "close"))
              )
            }
            if (options.openLocal && !isLocalRequest(request)) {
              return Effect.map(
                respond(
                  new Problem.Forbidden({
                    detail:
                      "Open local mode serves only local clients addressing a loopback host; set ROSTER_MASTER_KEY to serve others"
                  })
                ),
                (response) => finish(response)
              )
            }
            const adapted = request.modify({
              headers: HttpMethod.hasBody(method)
                ? Headers.set(request.headers, "content-type", "application/json")
                : request.headers,
              ...(client === undefined ? {} : { remoteAddress: Option.some(client) })
            })
            return app.pipe(
              Effect.provideService(HttpServerRequest.HttpServerRequest, adapted),
              Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBodySize),
              Effect.map((response) => finish(response)),
              Effect.catchCause((cause) =>
                Cause.hasInterruptsOnly(cause)
                  ? // The client hung up: nobody reads an answer, but the request is still logged.
                    Effect.andThen(
                      Effect.sync(() => record(clientClosedRequest)),
                      Effect.failCause(cause)
                    )
                  : Effect.map(answerUnhandled(cause, method, path), (response) =>
                      finish(response, response.status >= 500 ? loggableCause(cause) : undefined)
                    )
              )
            )
          })
        )
    }),
    { global: true }
  )
