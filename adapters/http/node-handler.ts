import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { pathOf } from "./edge/url-parts.ts"
import { namesPaths, normalPrefix, underPrefix, withoutPrefix } from "./mount-path.ts"
import { parserErrorsOf } from "./node-parser-errors.ts"
import { notOwnUrl, ownUrlOf } from "./own-url.ts"
import type { WebHandler } from "./web-handler.ts"

export interface NodeHandlerOptions {
  /**
   * The path Roster is mounted under when the framework hands on the whole path (Hono's Node
   * server, a catch-all route): `/roster`. A mount that strips it (Express's `app.use`, Koa's
   * `koa-mount`, Fastify's middie) needs none: it is read from `req.originalUrl` against `req.url`.
   */
  readonly basePath?: string
}

/** The request's headers as the Fetch API holds them, repeated ones kept. */
const headersOf = (request: IncomingMessage) => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each)
    else if (value !== undefined) headers.set(name, value)
  }
  return headers
}

/**
 * What a framework may have left on the request: its body parsed, the text it parsed it from (Koa's
 * `ctx.request.rawBody`, handed on by the mount), the path it was mounted under.
 */
type FrameworkRequest = IncomingMessage & {
  readonly body?: unknown
  readonly rawBody?: unknown
  readonly originalUrl?: string
}

/** The prefix a stripping mount removed: what `originalUrl`'s path has before `url`'s. */
const strippedPrefix = (incoming: FrameworkRequest) => {
  const original = incoming.originalUrl
  if (original === undefined || original === incoming.url) return ""
  const full = pathOf(original)
  const rest = pathOf(incoming.url ?? "/")
  if (rest === "/") return full.replace(/\/+$/u, "")
  return full.endsWith(rest) ? full.slice(0, full.length - rest.length) : ""
}

const isText = (value: unknown): value is string | Uint8Array =>
  typeof value === "string" || value instanceof Uint8Array

/**
 * The body to hand on: the stream while nobody read it; once a framework's parser read it
 * (`express.json()`, Koa's `bodyParser()`), the text it read where it kept that, else what it
 * parsed, as the JSON (or the form, for a form's content type) it was.
 */
const bodyOf = (incoming: FrameworkRequest): BodyInit => {
  if (!incoming.readableDidRead && !incoming.readableEnded) {
    // Streamed: the edge reads it under its size limit, never more.
    return Readable.toWeb(incoming) as unknown as ReadableStream<Uint8Array>
  }
  if (isText(incoming.rawBody)) return incoming.rawBody as BodyInit
  const parsed = incoming.body
  if (parsed === undefined || parsed === null) return ""
  if (isText(parsed)) return parsed as BodyInit
  if ((incoming.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded"))
    return new URLSearchParams(parsed as Record<string, string>).toString()
  return JSON.stringify(parsed)
}

/**
 * The web-standard handler as a `node:http` request listener, to host Roster in one's own Node
 * server (`http.createServer(toNodeHandler(web))`), or under a path of an Express, Koa, Fastify or
 * Hono app (see docs/embedding.md). The body is streamed both ways, or taken as the framework parsed
 * it; the peer's address is the socket's. Redirects and `Link` headers keep the mount's path.
 * `parserErrors` is its Express error middleware: a body the app's parser refused, answered by Roster.
 */
export const toNodeHandler = (web: Pick<WebHandler, "handler">, options: NodeHandlerOptions = {}) => {
  const handle = nodeHandler(web, options)
  return Object.assign(handle, { parserErrors: parserErrorsOf(handle) })
}

const nodeHandler =
  (web: Pick<WebHandler, "handler">, options: NodeHandlerOptions) =>
  (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const request = incoming as FrameworkRequest
    const method = request.method ?? "GET"
    const named = normalPrefix(options.basePath)
    const url = ownUrlOf("http", request.headers.host ?? "localhost", request.url ?? "/", (path) =>
      withoutPrefix(named, path)
    )
    if (url === undefined) return void sent(notOwnUrl(), outgoing, "")
    const prefix = named !== "" ? named : strippedPrefix(request)
    const headers = headersOf(request)
    const body = method === "GET" || method === "HEAD" ? undefined : bodyOf(request)
    // A body a parser read is handed on as its JSON, whose length is its own.
    if (body !== undefined && !(body instanceof ReadableStream)) {
      headers.delete("content-length")
      headers.delete("transfer-encoding")
    }
    const forward = new Request(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body, duplex: "half" })
    } as RequestInit)
    web.handler(forward, { remoteAddress: request.socket.remoteAddress, mountPath: prefix }).then(
      (response) => sent(response, outgoing, prefix),
      // The handler answers every failure itself; this is the socket gone or a bug around it.
      () => {
        if (!outgoing.headersSent) outgoing.writeHead(500)
        outgoing.end()
      }
    )
  }

/** Writes the web handler's answer on the socket, its redirects and `Link` headers under the prefix. */
const sent = (response: Response, outgoing: ServerResponse, prefix: string) => {
  const cookies = response.headers.getSetCookie()
  const answer: Record<string, string | Array<string>> = {}
  response.headers.forEach((value, name) => {
    if (name === "set-cookie") return
    answer[name] = namesPaths(name) ? underPrefix(prefix, value) : value
  })
  if (cookies.length > 0) answer["set-cookie"] = cookies
  outgoing.writeHead(response.status, answer)
  if (response.body === null) outgoing.end()
  else Readable.fromWeb(response.body as unknown as Parameters<typeof Readable.fromWeb>[0]).pipe(outgoing)
}
