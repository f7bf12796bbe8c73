import { ByteSize, Cause, Effect, Option } from "effect"
import {
  Headers,
  HttpIncomingMessage,
  HttpMethod,
  HttpRouter,
  HttpServerError,
  HttpServerRequest,
  HttpServerRespondable,
  HttpServerResponse
} from "effect/http"
import * as Problem from "../problems.ts"
import { ClientAddress, RequestLog } from "./request-log.ts"
import { allowedMethods } from "./route-table.ts"

export interface EdgeOptions {
  /** Request bodies above this many bytes are refused with 413 before they are read. */
  readonly maxBodyBytes: number
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/

const pathOf = (url: string) => {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

const respond = (problem: HttpServerRespondable.Respondable) => HttpServerRespondable.toResponse(problem)

const isBodyTooLarge = (defect: unknown) =>
  HttpServerError.isHttpServerError(defect) &&
  defect.reason._tag === "RequestParseError" &&
  defect.reason.reason === "BodyTooLarge"

/** What becomes of a failure no handler answered: a problem, never an empty body or internals. */
const answerUnhandled = (cause: Cause.Cause<unknown>, method: string, path: string) => {
  const failure = Cause.findErrorOption(cause)
  if (
    Option.isSome(failure) &&
    HttpServerError.isHttpServerError(failure.value) &&
    failure.value.reason._tag === "RouteNotFound"
  ) {
    const allowed = allowedMethods(path)
    if (allowed.length === 0 || allowed.includes(method)) {
      return respond(new Problem.NotFound({ detail: `No route ${method} ${path}` }))
    }
    return Effect.map(
      respond(new Problem.MethodNotAllowed({ detail: `${path} accepts ${allowed.join(", ")}` })),
      HttpServerResponse.setHeader("allow", allowed.join(", "))
    )
  }
  if (cause.reasons.some((reason) => Cause.isDieReason(reason) && isBodyTooLarge(reason.defect))) {
    return respond(new Problem.PayloadTooLarge({ detail: "The request body exceeds the size limit" }))
  }
  return respond(new Problem.Internal({ detail: "An unexpected error occurred" }))
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
            const finish = (response: HttpServerResponse.HttpServerResponse, error?: string) => {
              log({
                requestId,
                method,
                path,
                status: response.status,
                durationMs: Math.round((performance.now() - started) * 1000) / 1000,
                ...(error === undefined ? {} : { error })
              })
              return HttpServerResponse.setHeader(response, "x-request-id", requestId)
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
                  ? Effect.failCause(cause)
                  : Effect.map(answerUnhandled(cause, method, path), (response) =>
                      finish(response, response.status >= 500 ? Cause.pretty(cause) : undefined)
                    )
              )
            )
          })
        )
    }),
    { global: true }
  )
