import type { HttpServerRequest } from "effect/http"

const isLoopbackName = (hostname: string) =>
  hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname)

const hostnameOf = (authority: string) => {
  try {
    return new URL(`http://${authority}`).hostname
  } catch {
    return undefined
  }
}

/**
 * A request a local client addressed to a loopback host: its `Host` names one, and no browser says
 * it comes from another site. Refusing the rest keeps web pages (cross-site requests, DNS
 * rebinding) from using open local mode's full access through the user's browser.
 */
export const isLocalRequest = (request: HttpServerRequest.HttpServerRequest) => {
  const hostname = hostnameOf(request.headers.host ?? new URL(request.originalUrl, "http://localhost").host)
  if (hostname === undefined || !isLoopbackName(hostname)) return false
  if (request.headers["sec-fetch-site"] === "cross-site") return false
  const origin = request.headers.origin
  if (origin === undefined) return true
  const originHostname = URL.canParse(origin) ? new URL(origin).hostname : undefined
  return originHostname !== undefined && isLoopbackName(originHostname)
}
