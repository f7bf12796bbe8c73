import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import * as Problem from "../problems.ts"
import { withBodyRead } from "./body-in-hand.ts"
import { makeCrossSiteCheck } from "./cross-site.ts"
import { isLocalRequest } from "./local-request.ts"
import type { EdgeOptions } from "./options.ts"
import { respond } from "./unhandled.ts"
import { pathOfUrl } from "./url-parts.ts"
import { readUtf8Body } from "./utf8-body.ts"

/** A refusal rendered once at start; each use makes a fresh Response from it. */
export interface Refusal {
  readonly status: number
  readonly body: string
  readonly headers: ReadonlyArray<readonly [string, string]>
}

export const render = async (problem: Parameters<typeof respond>[0], extra: Record<string, string> = {}) => {
  const response = HttpServerResponse.toWeb(Effect.runSync(respond(problem)))
  const headers: Array<[string, string]> = Object.entries(extra)
  response.headers.forEach((value, name) => {
    headers.push([name, value])
  })
  return { status: response.status, body: await response.text(), headers } satisfies Refusal
}

export const isRefusal = (checked: Refusal | Request): checked is Refusal => !(checked instanceof Request)

export const toResponse = (refusal: Refusal) =>
  new Response(refusal.body, { status: refusal.status, headers: refusal.headers as Array<[string, string]> })

const hasBody = (method: string) =>
  method !== "GET" && method !== "HEAD" && method !== "OPTIONS" && method !== "TRACE"

const utf8 = new Set(["utf-8", "utf8", '"utf-8"', '"utf8"'])

/** `true` when a declared charset is not UTF-8: JSON bodies are read as UTF-8 only. */
const foreignCharset = (contentType: string) => {
  // Most bodies declare no parameter at all: nothing to split for them.
  if (!contentType.includes(";")) return false
  const parameters = contentType.toLowerCase().split(";").slice(1)
  return parameters.some((parameter) => {
    const [name, value] = parameter.split("=").map((part) => part.trim())
    return name === "charset" && !utf8.has(value ?? "")
  })
}

const jsonTypes = new Set(["application/json", "*/*"])

/**
 * Checks made on the web request before anything is decoded, with no per-request allocation on the
 * common path. Returns the refusal to send, or the request to serve (with a JSON content type when
 * the client declared another: bodies are JSON whatever the content type says).
 */
const samlAcsPath = "/api/v1/sso/saml/acs"
const formType = "application/x-www-form-urlencoded"

export const makeGuards = async (options: EdgeOptions) => {
  const tooLarge = await render(
    new Problem.PayloadTooLarge({ detail: `The request body exceeds ${options.maxBodyBytes} bytes` }),
    { connection: "close" }
  )
  const notLocal = await render(
    new Problem.Forbidden({
      detail:
        "Open local mode serves only local clients addressing a loopback host; set ROSTER_MASTER_KEY to serve others"
    })
  )
  const crossSite = await render(
    new Problem.CrossSite({
      detail:
        "A browser sent this request from a page of another site; only the service's own origin and the configured CORS origins may call it. " +
        "Where the page is Roster's own console, open it at the origin ROSTER_PUBLIC_URL names, or set ROSTER_PUBLIC_URL " +
        "(publicOrigin where Roster is embedded) to the origin the browser shows, e.g. http://localhost:3000"
    })
  )
  const isCrossSite = makeCrossSiteCheck({
    publicOrigin: options.publicOrigin,
    corsOrigins: options.corsOrigins,
    // Each authenticated by its signature, posted by another site by nature: the payment provider, a SAML IdP.
    exemptPaths: ["/api/v1/payments/webhook", samlAcsPath]
  })
  const maxHeaderBytes = options.maxHeaderBytes ?? 16 * 1024
  const headersTooLarge = await render(
    new Problem.HeadersTooLarge({ detail: `The request's headers exceed ${maxHeaderBytes} bytes` }),
    { connection: "close" }
  )
  const headerBytes = (headers: Headers) => {
    let bytes = 0
    headers.forEach((value, name) => {
      bytes += name.length + value.length + 4
    })
    return bytes
  }
  const charset = await render(
    new Problem.UnsupportedMediaType({ detail: "Request bodies are JSON in UTF-8; declare no other charset" })
  )
  const encoded = await render(
    new Problem.UnsupportedMediaType({ detail: "Request bodies are accepted without Content-Encoding only" })
  )
  const notUtf8 = await render(
    new Problem.ValidationFailed({
      detail: "The request's body is not valid: see errors",
      errors: [{ path: "body", message: "Expected UTF-8; the body has bytes that are not" }]
    })
  )
  const notForm = await render(
    new Problem.UnsupportedMediaType({
      detail: "A SAML response is posted as a form: Content-Type application/x-www-form-urlencoded"
    })
  )
  const sessionHeader = await render(
    new Problem.ValidationFailed({
      detail: "The request's Roster-Session header is not valid: see errors",
      errors: [{ path: "headers.roster-session", message: "Expected cookie, or no Roster-Session header" }]
    })
  )
  /** The body read to its end (at most the limit) and checked to be UTF-8, before anything decodes it. */
  const readBody = async (request: Request): Promise<Refusal | Request> => {
    const read = await readUtf8Body(request, options.maxBodyBytes)
    if (read._tag === "TooLarge") return tooLarge
    if (read._tag === "NotUtf8") return notUtf8
    return withBodyRead(request, read.bytes, read.text)
  }
  const check = (request: Request): Refusal | Request => {
    const headers = request.headers
    if (headerBytes(headers) > maxHeaderBytes) return headersTooLarge
    if (isCrossSite(request)) return crossSite
    if (Number(headers.get("content-length")) > options.maxBodyBytes) return tooLarge
    if (options.openLocal && !isLocalRequest(request)) return notLocal
    if (!hasBody(request.method)) return request
    const encoding = headers.get("content-encoding")
    if (encoding !== null && encoding.trim().toLowerCase() !== "identity") return encoded
    const contentType = headers.get("content-type")
    // A SAML IdP posts a form, which its endpoint reads as one; every other body is JSON, whatever it says.
    const samlPost = request.url.includes(samlAcsPath) && pathOfUrl(request.url) === samlAcsPath
    if (contentType === null) return samlPost ? notForm : request
    if (foreignCharset(contentType)) return charset
    const semicolon = contentType.indexOf(";")
    const mediaType = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase()
    if (samlPost) return mediaType === formType ? request : notForm
    if (jsonTypes.has(mediaType)) return request
    const adapted = new Headers(headers)
    adapted.set("content-type", "application/json")
    return new Request(request, { headers: adapted })
  }
  return { check, readBody, crossSite, sessionHeader }
}
