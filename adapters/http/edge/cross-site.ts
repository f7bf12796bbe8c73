import { originOfUrl, pathOfUrl } from "./url-parts.ts"

/**
 * Requests a browser sends from a site we do not allow, refused before any work: a web page must
 * not make its visitors' browsers spend an account's login attempts, or act with a token it holds.
 * Clients that are not browsers send neither `Origin` nor `Sec-Fetch-Site` and are unaffected.
 */
export interface CrossSiteOptions {
  /** The service's public origin behind a proxy (`ROSTER_PUBLIC_URL`), besides the request's own. */
  readonly publicOrigin?: string | undefined
  /** Origins whose pages may call the API (CORS). */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
  /** Paths that take deliveries from servers, whatever they send (the payment provider's webhook). */
  readonly exemptPaths: ReadonlyArray<string>
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"])

/** Whether `request` is a browser's request from a site we do not allow: answer 403 `cross_site`. */
export const makeCrossSiteCheck = (options: CrossSiteOptions) => {
  const allowed = new Set([
    ...(options.corsOrigins ?? []).map((origin) => origin.toLowerCase()),
    ...(options.publicOrigin === undefined ? [] : [options.publicOrigin.toLowerCase()])
  ])
  const exempt = new Set(options.exemptPaths)
  return (request: Request): boolean => {
    if (safeMethods.has(request.method)) return false
    const headers = request.headers
    const origin = headers.get("origin")
    if (origin === null) {
      if (headers.get("sec-fetch-site") !== "cross-site") return false
    } else {
      const lowered = origin.toLowerCase()
      if (allowed.has(lowered) || lowered === originOfUrl(request.url)) return false
    }
    return !exempt.has(pathOfUrl(request.url))
  }
}
