import { normalPrefix, underPrefix, withoutPrefix } from "./mount-path.ts"
import type { ConnectionInfo, WebHandler } from "./web-handler.ts"

export interface FetchHandlerOptions {
  /** The path Roster is mounted under, which the framework hands on: `/roster`. */
  readonly basePath?: string
  /** Who is calling, for throttling, where the host knows (a Next.js route does not). */
  readonly connectionOf?: (request: Request) => ConnectionInfo | undefined
}

/**
 * The web handler as a plain `(request) => Promise<Response>`, for hosts that hand on the whole
 * request: a Next.js route handler (`export const GET = roster, POST = roster, …`), Hono's
 * `app.all("/roster/*", (c) => roster(c.req.raw))`, `Bun.serve`, `Deno.serve`. Under `basePath` the
 * prefix is taken off the request's path and put back on redirects and `Link` headers.
 */
export const toWebHandler = (web: Pick<WebHandler, "handler">, options: FetchHandlerOptions = {}) => {
  const prefix = normalPrefix(options.basePath)
  return async (request: Request): Promise<Response> => {
    const connection = options.connectionOf?.(request)
    if (prefix === "") return web.handler(request, connection)
    const url = new URL(request.url)
    const path = withoutPrefix(prefix, `${url.pathname}${url.search}`)
    const inner = new Request(new URL(path, url.origin), {
      method: request.method,
      headers: request.headers,
      signal: request.signal,
      ...(request.body === null ? {} : { body: request.body, duplex: "half" })
    } as RequestInit)
    const response = await web.handler(inner, { ...connection, mountPath: prefix })
    if (!response.headers.has("location") && !response.headers.has("link")) {
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
