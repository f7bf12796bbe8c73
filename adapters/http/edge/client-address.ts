import type { HttpServerRequest } from "effect/http"

// Keyed by the web request itself: handing the address over in a per-request context meant copying
// every service into a new context on each request, the largest cost the profile showed.
const addresses = new WeakMap<Request, string>()

/** Remembers the peer address the server saw for `request` (login throttling counts per address). */
export const rememberClientAddress = (request: Request, address: string | undefined) => {
  if (address !== undefined) addresses.set(request, address)
}

/** The peer address of the request being handled, when the server told it. */
export const clientAddressOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const source = request.source
  return source instanceof Request ? addresses.get(source) : undefined
}
