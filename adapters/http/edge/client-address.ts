import type { HttpServerRequest } from "effect/http"

export interface ConnectionInfo {
  /**
   * The peer's address as the server saw it; login throttling counts per address. Read only when a
   * request needs it, so a server may compute it lazily (a getter).
   */
  readonly remoteAddress?: string | undefined
}

// Keyed by the web request itself: handing the connection over in a per-request context meant
// copying every service into a new context on each request, the largest cost the profile showed.
const connections = new WeakMap<Request, ConnectionInfo>()

/** Remembers how `request` reached the server, for the few handlers that ask (login). */
export const rememberConnection = (request: Request, connection: ConnectionInfo | undefined) => {
  if (connection !== undefined) connections.set(request, connection)
}

/** The peer address of the request being handled, when the server told it. */
export const clientAddressOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const source = request.source
  return source instanceof Request ? connections.get(source)?.remoteAddress : undefined
}
