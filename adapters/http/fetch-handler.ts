import { normalPrefix, underPrefix, withoutPrefix } from "./mount-path.ts"
import { notOwnUrl, ownUrlOf } from "./own-url.ts"
import type { ConnectionInfo, WebHandler } from "./web-handler.ts"

export interface FetchHandlerOptions {
  /** The path Roster is mounted under, which the framework hands on: `/roster`. */
  readonly basePath?: string
  /** Who is calling, for throttling, where the host knows (a Next.js route does not). */
  readonly connectionOf?: (request: Request) => ConnectionInfo | undefined
  /**
   * The host compresses every answer itself, without looking at what the handler encoded (Next.js
   * does, so Roster's own gzip would arrive gzipped twice): Roster then answers unencoded.
   */
  readonly hostCompresses?: boolean
}

/** The `Host` a request was sent to; its URL's host where it has none (HTTP/1.0, HTTP/2's `:authority`). */
const hostOf = (request: Request, url: URL) => request.headers.get("host") ?? url.host

/**
 * The request as Roster takes it: the prefix off its path, on its own origin, the scheme and the
 * `Host` it was sent to (a host that builds the URL from an absolute-form target, as Hono's Node
 * server does, may have put another host in it); no encodings offered, when the host compresses.
 * Undefined when it names no path here.
 */
const innerRequest = (request: Request, prefix: string, hostCompresses: boolean) => {
  const url = new URL(request.url)
  const inner = ownUrlOf(
    url.protocol === "https:" ? "https" : "http",
    hostOf(request, url),
    `${url.pathname}${url.search}`,
    (path) => withoutPrefix(prefix, path)
  )
  if (inner === undefined) return undefined
  const headers = new Headers(request.headers)
  if (hostCompresses) headers.delete("accept-encoding")
  return new Request(inner, {
    method: request.method,
    headers,
    signal: request.signal,
    ...(request.body === null ? {} : { body: request.body, duplex: "half" })
  } as RequestInit)
}

/** Whether the request's URL is on the origin it was sent to: handed on as it is. */
const onItsHost = (request: Request) => {
  const url = new URL(request.url)
  return hostOf(request, url).toLowerCase() === url.host
}

/**
 * The web handler as a plain `(request) => Promise<Response>`, for hosts that hand on the whole
 * request: a Next.js route handler (`export const GET = roster, POST = roster, …`), Hono's
 * `app.all("/roster/*", (c) => roster(c.req.raw))`, `Bun.serve`, `Deno.serve`. Under `basePath` the
 * prefix is taken off the request's path and put back on redirects and `Link` headers.
 */
export const toWebHandler = (web: Pick<WebHandler, "handler">, options: FetchHandlerOptions = {}) => {
  const prefix = normalPrefix(options.basePath)
  const hostCompresses = options.hostCompresses === true
  return async (request: Request): Promise<Response> => {
    const connection = options.connectionOf?.(request)
    if (prefix === "" && !hostCompresses && onItsHost(request)) return web.handler(request, connection)
    const inner = innerRequest(request, prefix, hostCompresses)
    if (inner === undefined) return notOwnUrl()
    const response = await web.handler(inner, {
      ...connection,
      mountPath: prefix
    })
    if (prefix === "" || (!response.headers.has("location") && !response.headers.has("link"))) {
      return response
    }
    const headers = new Headers(response.headers)
    for (const name of ["location", "link"]) {
      const value = headers.get(name)
      if (value !== null) headers.set(name, underPrefix(prefix, value))
    }
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}
