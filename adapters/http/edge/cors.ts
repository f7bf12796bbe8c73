/**
 * Cross-origin access for browser front ends served from the listed origins, and for no one else.
 * Tokens travel in `Authorization`, never in cookies, so no answer allows credentials, and none
 * carries `*`: the listed origin that asked is named back. Every header value is fixed at start.
 */
export interface Cors {
  /** A preflight (`OPTIONS` with `Access-Control-Request-Method`) from a listed origin. */
  readonly isPreflight: (request: Request) => boolean
  /** Its answer: 204 with what any request of the API may use. */
  readonly preflight: (request: Request) => Response
  /** Lets a listed origin's page read the answer (its problem details and paging links too). */
  readonly allow: (request: Request, response: Response) => Response
}

const allowedMethods = "GET, POST, PATCH, DELETE"
const allowedHeaders = "Authorization, Content-Type, Idempotency-Key, Roster-Organization, X-Request-Id"
const exposedHeaders = "Link, Retry-After, X-Request-Id, Idempotent-Replayed, WWW-Authenticate, Allow"
/** Chromium caps what it caches at two hours; the lists above change only with a restart. */
const maxAgeSeconds = String(2 * 60 * 60)

/** The CORS of the listed origins (serialised origins, checked at start); none: CORS is off. */
export const makeCors = (origins: ReadonlyArray<string>): Cors | undefined => {
  if (origins.length === 0) return undefined
  const listed = new Set(origins)
  const listedOrigin = (request: Request) => {
    const origin = request.headers.get("origin")
    return origin !== null && listed.has(origin) ? origin : undefined
  }
  return {
    isPreflight: (request) =>
      request.method === "OPTIONS" &&
      request.headers.has("access-control-request-method") &&
      listedOrigin(request) !== undefined,
    preflight: (request) =>
      new Response(null, {
        status: 204,
        headers: {
          "access-control-allow-origin": listedOrigin(request) ?? "",
          "access-control-allow-methods": allowedMethods,
          "access-control-allow-headers": allowedHeaders,
          "access-control-max-age": maxAgeSeconds,
          vary: "Origin"
        }
      }),
    allow: (request, response) => {
      // Whether an answer may be read depends on the origin asking: caches must keep them apart.
      response.headers.append("vary", "Origin")
      const origin = listedOrigin(request)
      if (origin !== undefined) {
        response.headers.set("access-control-allow-origin", origin)
        response.headers.set("access-control-expose-headers", exposedHeaders)
      }
      return response
    }
  }
}
