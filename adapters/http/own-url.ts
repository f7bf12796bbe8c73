import * as Problem from "./problems.ts"

/** A `Host` as a client may name the service: a name or address, and a port. */
const hostPattern = /^(?:[a-z\d.-]+|\[[a-f\d:.]+\])(?::\d{1,5})?$/iu

const absoluteForm = /^[a-z][a-z\d+.-]*:\/\//iu

/**
 * The path and query a request target names on this service. A target beginning `//` is a path
 * here (`new URL(target, origin)` would read another host from it); an absolute-form target gives
 * its path and query only, never its host; any other (`*`, `host:port`) names no path.
 */
const pathOfTarget = (target: string): string | undefined => {
  if (target.startsWith("/")) return target
  if (!absoluteForm.test(target) || !URL.canParse(target)) return undefined
  const url = new URL(target)
  return `${url.pathname}${url.search}`
}

/**
 * The URL a request is served at: the service's own origin, the request's scheme and `Host`, and
 * the path its target names (with `toPath` applied, a mount's prefix taken off). The target never
 * chooses the origin, so no same-origin check, cookie rule or redirect can be pointed at another
 * host by the path. Undefined when the target is not a path or the host is not a host: answer 400.
 */
export const ownUrlOf = (
  scheme: "http" | "https",
  host: string,
  target: string,
  toPath: (path: string) => string = (path) => path
): URL | undefined => {
  const path = pathOfTarget(target)
  if (path === undefined || !hostPattern.test(host)) return undefined
  const url = new URL(`${scheme}://${host}`)
  const own = new URL(`${url.origin}${toPath(path)}`)
  return own.origin === url.origin ? own : undefined
}

/** The answer to a request whose target or host names no URL of this service. */
export const notOwnUrl = () =>
  new Response(
    JSON.stringify(
      new Problem.ValidationFailed({
        detail: "The request target must be a path of this service, and the Host a host name",
        errors: [{ path: "target", message: "Expected a path such as /api/v1/…" }]
      })
    ),
    {
      status: 400,
      headers: {
        "content-type": "application/problem+json",
        "x-content-type-options": "nosniff",
        "cache-control": "no-store"
      }
    }
  )
