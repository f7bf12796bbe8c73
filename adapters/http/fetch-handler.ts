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

/**
 * The request as Roster takes it: the prefix off its path, on the request's own origin; no
 * encodings offered, when the host compresses. Undefined when its URL names no path here.
 */
const innerRequest = (request: Request, prefix: string, hostCompresses: boolean) => {
  const url = new URL(request.url)
  const inner = ownUrlOf(
    url.protocol === "https:" ? "https" : "http",
    url.host,
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
    if (prefix === "" && !hostCompresses) return web.handler(request, connection)
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
