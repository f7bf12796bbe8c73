import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import type { WebHandler } from "./web-handler.ts"

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
 * The web-standard handler as a `node:http` request listener, to host Roster in one's own Node
 * server (`http.createServer(toNodeHandler(web))`, or under a path of an Express app). The body is
 * streamed both ways; the peer's address is the socket's.
 */
export const toNodeHandler =
  (web: Pick<WebHandler, "handler">) =>
  (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const method = incoming.method ?? "GET"
    const request = new Request(
      new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`),
      {
        method,
        headers: headersOf(incoming),
        ...(method === "GET" || method === "HEAD"
          ? {}
          : // Streamed: the edge reads it under its size limit, never more.
            { body: Readable.toWeb(incoming) as unknown as ReadableStream<Uint8Array>, duplex: "half" })
      } as RequestInit
    )
    web.handler(request, { remoteAddress: incoming.socket.remoteAddress }).then(
      (response) => {
        const cookies = response.headers.getSetCookie()
        const headers: Record<string, string | Array<string>> = {}
        response.headers.forEach((value, name) => {
          if (name !== "set-cookie") headers[name] = value
        })
        if (cookies.length > 0) headers["set-cookie"] = cookies
        outgoing.writeHead(response.status, headers)
        if (response.body === null) outgoing.end()
        else
          Readable.fromWeb(response.body as unknown as Parameters<typeof Readable.fromWeb>[0]).pipe(outgoing)
      },
      // The handler answers every failure itself; this is the socket gone or a bug around it.
      () => {
        if (!outgoing.headersSent) outgoing.writeHead(500)
        outgoing.end()
      }
    )
  }
