import { isLoopbackName, originHostname } from "./local-request.ts"
import { originOfUrl } from "./url-parts.ts"

/**
 * The console's session: a cookie holding a session token, which a browser sends on its own and
 * page scripts cannot read (`HttpOnly`). Because a browser sends it whoever asks, it counts only on
 * requests from the service's own origin, and never over an `Authorization` header.
 */
export const sessionCookieName = "roster_session"

/** The header by which a same-origin sign-in asks for its session as the cookie. */
const sessionCookieHeader = "roster-session"

/** The answers that start a session: their token goes into the cookie when the request asks. */
export const startingPaths: ReadonlySet<string> = new Set([
  "/api/v1/auth/login",
  "/api/v1/sso/token",
  "/api/v1/auth/mfa/verify",
  "/api/v1/auth/passkeys/login",
  "/api/v1/auth/signup",
  "/api/v1/invitations/accept"
])

const logoutPath = "/api/v1/auth/logout"

const apiPaths = "/api/"

/** The value of the cookie `name` in a `Cookie` header, if it holds one. */
export const cookieValue = (cookies: string | null | undefined, name: string): string | undefined => {
  if (cookies === null || cookies === undefined) return undefined
  for (const pair of cookies.split(";")) {
    const equals = pair.indexOf("=")
    if (equals !== -1 && pair.slice(0, equals).trim() === name) {
      const value = pair.slice(equals + 1).trim()
      return value === "" ? undefined : value
    }
  }
  return undefined
}

const parsed = (text: string): { readonly token?: unknown; readonly expiresAt?: unknown } | undefined => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * A cookie's attributes for the service at `origin`: never read by page scripts, sent only to the
 * service's own pages (`SameSite=Strict`, or `Lax` where a sign-in returns from another site), and
 * `Secure` everywhere but on a loopback address, where browsers speak plain http.
 */
export const cookieAttributes = (origin: string, path = "/", sameSite: "Strict" | "Lax" = "Strict") => {
  const hostname = originHostname(origin)
  const loopback = origin.startsWith("http:") && hostname !== undefined && isLoopbackName(hostname)
  return `Path=${path}; HttpOnly; SameSite=${sameSite}${loopback ? "" : "; Secure"}`
}

/** The console's session cookie holding `token` for `seconds`, for the service at `origin`. */
export const sessionCookieOf = (origin: string, token: string, seconds: number) =>
  `${sessionCookieName}=${token}; Max-Age=${seconds}; ${cookieAttributes(origin)}`

export interface SessionCookieOptions {
  /** The service's public origin behind a proxy (`ROSTER_PUBLIC_URL`), besides the request's own. */
  readonly publicOrigin?: string | undefined
}

export const makeSessionCookie = (options: SessionCookieOptions) => {
  const publicOrigin = options.publicOrigin?.toLowerCase()
  const isOwnOrigin = (origin: string, request: Request) => {
    const lowered = origin.toLowerCase()
    return lowered === publicOrigin || lowered === originOfUrl(request.url)
  }
  /**
   * Whether a browser sent the request from the service's own pages, or for its user (an address
   * typed or bookmarked: `Sec-Fetch-Site: none`): its `Origin` is ours, or it sends none and says
   * so. Another site's page, even a sibling's (`same-site`), is not ours. Clients that are not
   * browsers send neither header.
   */
  const fromOwnOrigin = (request: Request) => {
    const origin = request.headers.get("origin")
    if (origin !== null) return isOwnOrigin(origin, request)
    const site = request.headers.get("sec-fetch-site")
    return site === null || site === "same-origin" || site === "none"
  }
  const attributes = (request: Request) => cookieAttributes(publicOrigin ?? originOfUrl(request.url) ?? "")
  const cleared = (request: Request) => `${sessionCookieName}=; Max-Age=0; ${attributes(request)}`

  /** The answer with its session moved into the cookie: the body keeps an empty token. */
  const start = async (request: Request, response: Response): Promise<Response> => {
    if (response.status !== 200) return response
    const text = await response.text()
    const body = parsed(text)
    const headers = new Headers(response.headers)
    // A second step's challenge is no session: answered as it was.
    if (typeof body?.token !== "string" || typeof body.expiresAt !== "string") {
      return new Response(text, { status: 200, headers })
    }
    const seconds = Math.max(0, Math.floor((Date.parse(body.expiresAt) - Date.now()) / 1000))
    headers.delete("content-length")
    headers.append(
      "set-cookie",
      sessionCookieOf(publicOrigin ?? originOfUrl(request.url) ?? "", body.token, seconds)
    )
    return new Response(JSON.stringify({ ...body, token: "" }), { status: 200, headers })
  }

  return {
    /**
     * The session token the cookie carries, asked only of a request with no `Authorization`
     * header; `"foreign"` when a browser sent the cookie from another origin, which is refused.
     */
    tokenOf: (request: Request, path: string): string | "foreign" | undefined => {
      // Only the API authenticates: the console's page and files, the docs and the probes are
      // answered alike with or without the cookie, whoever links to them.
      if (!path.startsWith(apiPaths)) return undefined
      const token = cookieValue(request.headers.get("cookie"), sessionCookieName)
      if (token === undefined) return undefined
      return fromOwnOrigin(request) ? token : "foreign"
    },
    /** Whether an answer to `path` may need the cookie set, when the request did not come with it. */
    starts: (path: string) => startingPaths.has(path),
    /** Whether a sign-in sent `Roster-Session` with a value other than `cookie`: refused as invalid. */
    asksAmiss: (request: Request, path: string) => {
      const asked = request.headers.get(sessionCookieHeader)
      return asked !== null && asked !== "cookie" && startingPaths.has(path)
    },
    /**
     * The answer, with the cookie set when a sign-in from our own pages asked for it, or cleared
     * when the session it carried ended (logout) or no longer counts (401).
     */
    finish: (request: Request, path: string, response: Response): Response | Promise<Response> => {
      if (startingPaths.has(path)) {
        return request.headers.get(sessionCookieHeader) === "cookie" && fromOwnOrigin(request)
          ? start(request, response)
          : response
      }
      if (path === logoutPath || response.status === 401) {
        response.headers.append("set-cookie", cleared(request))
      }
      return response
    }
  }
}
