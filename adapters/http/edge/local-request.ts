/** `localhost`, `::1` (bare or bracketed) or 127.x.x.x: a name that only reaches this machine. */
export const isLoopbackName = (hostname: string) =>
  hostname === "localhost" ||
  hostname === "[::1]" ||
  hostname === "::1" ||
  /^127(\.\d{1,3}){3}$/.test(hostname)

/** The host name of an authority (`host[:port]`, `[v6]:port`), lower-cased; no URL parse per request. */
const hostnameOf = (authority: string) => {
  if (/[@/\\?#\s]/.test(authority)) return undefined
  const lower = authority.toLowerCase()
  if (lower.startsWith("[")) {
    const end = lower.indexOf("]")
    return end === -1 ? undefined : lower.slice(0, end + 1)
  }
  const colon = lower.indexOf(":")
  return colon === -1 ? lower : lower.slice(0, colon)
}

/** The host name of an origin (`scheme://host[:port]`), lower-cased; undefined when it is not one. */
export const originHostname = (origin: string) => {
  const scheme = origin.indexOf("://")
  if (scheme === -1) return undefined
  const rest = origin.slice(scheme + 3)
  const slash = rest.indexOf("/")
  return hostnameOf(slash === -1 ? rest : rest.slice(0, slash))
}

/**
 * A request a local client addressed to a loopback host: its `Host` names one, and no browser says
 * it comes from another site. Refusing the rest keeps web pages (cross-site requests, DNS
 * rebinding) from using open local mode's full access through the user's browser.
 */
export const isLocalRequest = (request: Request) => {
  const host = request.headers.get("host") ?? hostOfUrl(request.url)
  if (!isLoopbackHost(host)) return false
  if (request.headers.get("sec-fetch-site") === "cross-site") return false
  const origin = request.headers.get("origin")
  if (origin === null) return true
  const fromOrigin = originHostname(origin)
  return fromOrigin !== undefined && isLoopbackName(fromOrigin)
}

const hostOfUrl = (url: string) => originHostname(url) ?? ""

// A server sees the same one or two Host values on nearly every request: the last loopback one
// is remembered, so that a request costs a comparison rather than a parse.
let lastLoopbackHost: string | undefined

const isLoopbackHost = (host: string) => {
  if (host === lastLoopbackHost) return true
  const hostname = hostnameOf(host)
  if (hostname === undefined || !isLoopbackName(hostname)) return false
  lastLoopbackHost = host
  return true
}
