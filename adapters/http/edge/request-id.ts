import type { HttpServerRequest } from "effect/http"

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/

// A random prefix per process and a counter: unique across instances without a UUID per request.
const prefix = crypto.randomUUID().slice(0, 13)
let counter = 0

/** The client's `X-Request-Id` when it is a sane token, else a fresh one. */
export const requestIdOf = (incoming: string | null | undefined) =>
  incoming != null && requestIdPattern.test(incoming) ? incoming : `${prefix}${(counter++).toString(36)}`

// Keyed by the web request, like the connection (client-address.ts): nothing is provided per request.
const requestIds = new WeakMap<object, string>()

/** Remembers the id the edge gave `request`, for the use cases that record it. */
export const rememberRequestId = (request: HttpServerRequest.HttpServerRequest, requestId: string) => {
  requestIds.set(request.source, requestId)
}

/** The id the edge gave `request`, if it may change something (see `rememberRequestId`). */
export const rememberedRequestId = (request: HttpServerRequest.HttpServerRequest) =>
  requestIds.get(request.source)
