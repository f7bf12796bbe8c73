import { Effect, Redacted } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpServerResponse } from "effect/http"
import { consoleReturn, isConsolePath, type ServiceUrls } from "../../core/index.ts"
import { currentMountPath } from "./edge/routed.ts"
import { cookieAttributes, cookieValue, sessionCookieOf } from "./edge/session-cookie.ts"
import { originOfUrl, pathOfUrl } from "./edge/url-parts.ts"

/** The cookie binding a sign-in to the browser that started it: sent back on the provider's return. */
export const bindingCookieName = "roster_sso"
const bindingPath = "/api/v1/sso"
const bindingSeconds = 600

/**
 * Where the service is reached: `ROSTER_PUBLIC_URL`'s origin, else the request's own, followed by
 * the path the host mounted Roster under, if any.
 */
export const serviceUrlsOf = (
  request: HttpServerRequest.HttpServerRequest,
  publicOrigin: string | undefined
) =>
  Effect.map(
    currentMountPath,
    (mountPath): ServiceUrls => ({
      base: `${publicOrigin ?? originOfUrl(request.originalUrl) ?? "http://localhost"}${mountPath}`
    })
  )

/** The binding cookie the browser sent, if any. */
export const bindingOf = (request: HttpServerRequest.HttpServerRequest) => {
  const value = cookieValue(request.headers.cookie, bindingCookieName)
  return value === undefined ? undefined : Redacted.make(value)
}

/**
 * SameSite=Lax: a browser sends it on the top-level GET that brings it back from the provider, and
 * on the redirect that follows a SAML post; never on another site's requests.
 */
const bindingCookie = (urls: ServiceUrls, value: string, seconds: number) => {
  const mountPath = pathOfUrl(urls.base).replace(/\/$/u, "")
  return `${bindingCookieName}=${value}; Max-Age=${seconds}; ${cookieAttributes(urls.base, `${mountPath}${bindingPath}`, "Lax")}`
}

/** `returnTo` as the browser is sent there: a console path on this service, or the allowed URL. */
const returnUrl = (urls: ServiceUrls, returnTo: string, parameters: Record<string, string>) => {
  const url = new URL(isConsolePath(returnTo) ? `${urls.base}${returnTo}` : returnTo)
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value)
  return url.toString()
}

/** A redirect setting each of `cookies` in a header of its own, as cookies must be. */
const redirect = (location: string, cookies: ReadonlyArray<string>, status = 302) => {
  const headers = new Headers({ location, "cache-control": "no-store" })
  for (const cookie of cookies) headers.append("set-cookie", cookie)
  return HttpServerResponse.fromWeb(new Response(null, { status, headers }))
}

/** To the provider, with the binding cookie. */
export const toProvider = (urls: ServiceUrls, location: string, binding: Redacted.Redacted<string>) =>
  redirect(location, [bindingCookie(urls, Redacted.value(binding), bindingSeconds)])

/** Back to `returnTo` (the console when the sign-in is unknown), telling a refusal by its code alone. */
export const refused = (urls: ServiceUrls, returnTo: string | undefined, code: string, status = 302) =>
  redirect(returnUrl(urls, returnTo ?? consoleReturn, { error: code }), [bindingCookie(urls, "", 0)], status)

/** What a finished sign-in ended with: a code for `returnTo`, or the console's session. */
export type SignInEnd =
  | { readonly code: Redacted.Redacted<string> }
  | {
      readonly session: {
        readonly token: Redacted.Redacted<string>
        readonly expiresAt: { readonly epochMilliseconds: number }
      }
    }

/** Back to `returnTo`: with `?code=`, or, for the console, its session cookie set. */
export const signedIn = (urls: ServiceUrls, returnTo: string, end: SignInEnd) => {
  const cleared = bindingCookie(urls, "", 0)
  if ("code" in end) return redirect(returnUrl(urls, returnTo, { code: Redacted.value(end.code) }), [cleared])
  const seconds = Math.max(0, Math.floor((end.session.expiresAt.epochMilliseconds - Date.now()) / 1000))
  return redirect(returnUrl(urls, returnTo, {}), [
    cleared,
    sessionCookieOf(urls.base, Redacted.value(end.session.token), seconds)
  ])
}

/** The code a problem is known by: all a refused browser is told. */
export const codeOf = (problem: unknown): string =>
  typeof problem === "object" && problem !== null && "code" in problem && typeof problem.code === "string"
    ? problem.code
    : "internal_error"
