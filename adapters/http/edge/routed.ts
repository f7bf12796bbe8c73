import type { HttpServerRequest } from "effect/http"

export interface ConnectionInfo {
  /**
   * The peer's address as the server saw it; login throttling counts per address. Read only when a
   * request needs it, so a server may compute it lazily (a getter).
   */
  readonly remoteAddress?: string | undefined
}

/** What the edge knows of a request it hands to the router. */
export interface Routed {
  readonly requestId: string
  readonly connection: ConnectionInfo | undefined
  /** The name of the Idempotency-Key claim it runs under (see `CurrentRequestKey`), when it carries one. */
  requestKey?: string
  /** Why the request ended in a 500: logged by the edge, never sent. */
  failure?: string
}

// Keyed by the web request itself: handing these over in the request's context meant copying the
// context on every request.
const routed = new WeakMap<Request, Routed>()

export const rememberRouted = (request: Request, record: Routed) => {
  routed.set(request, record)
}

/** What the edge knows of the request being handled; undefined for a request it did not route. */
export const routedOf = (request: HttpServerRequest.HttpServerRequest): Routed | undefined => {
  const source = request.source
  return source instanceof Request ? routed.get(source) : undefined
}

/** The peer address of the request being handled, when the server told it. */
export const clientAddressOf = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  routedOf(request)?.connection?.remoteAddress
