import type { RosterClaims, RosterVerifier } from "./verifier.ts"

/** The organisation a request is about: its id or slug, or `"any"`; from the framework's request. */
export interface AuthorizeOptions<Request> {
  readonly organization: (request: Request) => string | Promise<string>
}

interface Refusal {
  readonly status: 401 | 403
  readonly body: string
  readonly headers: Record<string, string>
}

const problem = (status: 401 | 403, code: string, title: string, detail: string): Refusal => ({
  status,
  body: JSON.stringify({ type: `urn:roster:problem:${code}`, title, status, detail, code }),
  headers: {
    "content-type": "application/problem+json",
    ...(status === 401 ? { "www-authenticate": 'Bearer error="invalid_token"' } : {})
  }
})

const bearerOf = (authorization: string | null | undefined) => {
  const match = /^Bearer\s+(\S+)\s*$/iu.exec(authorization ?? "")
  return match?.[1]
}

/** The claims of the request's token, holding `permission` where the request is about; else the refusal. */
const decide = async (
  verifier: RosterVerifier,
  permission: string,
  authorization: string | null | undefined,
  organization: () => string | Promise<string>
): Promise<RosterClaims | Refusal> => {
  const token = bearerOf(authorization)
  if (token === undefined)
    return problem(401, "unauthorized", "Unauthorized", "A Roster access token is required as a bearer token")
  let claims: RosterClaims
  try {
    claims = await verifier.verify(token)
  } catch (error) {
    return problem(
      401,
      "unauthorized",
      "Unauthorized",
      error instanceof Error ? error.message : "Invalid token"
    )
  }
  const where = await organization()
  if (where !== "any" && where !== claims.org_id && where !== claims.org_slug)
    return problem(403, "forbidden", "Forbidden", "The token is for another organisation")
  if (!verifier.can(claims, permission, where))
    return problem(403, "forbidden", "Forbidden", `The token does not hold ${permission}`)
  return claims
}

const isRefusal = (decided: RosterClaims | Refusal): decided is Refusal =>
  "body" in decided && "status" in decided

/**
 * For a Request handler (Next.js, Bun, Deno) or a Koa or Fastify hook: the claims of the request's
 * access token when it holds `permission` where the request is about, else the 401 or 403 problem
 * to answer with.
 */
export const authorizeRequest = async (
  verifier: RosterVerifier,
  permission: string,
  request: Request,
  options: AuthorizeOptions<Request>
): Promise<RosterClaims | Response> => {
  const decided = await decide(verifier, permission, request.headers.get("authorization"), () =>
    options.organization(request)
  )
  return isRefusal(decided)
    ? new Response(decided.body, { status: decided.status, headers: decided.headers })
    : decided
}

/** What Express and Connect hand a middleware: Node's request and response. */
interface NodeRequest {
  readonly headers: Record<string, string | ReadonlyArray<string> | undefined>
  roster?: RosterClaims
}
interface NodeResponse {
  statusCode: number
  setHeader: (name: string, value: string) => unknown
  end: (body: string) => unknown
}
/** What Hono hands a middleware: its context, with the request and the variables. */
interface HonoContext {
  readonly req: { readonly header: (name: string) => string | undefined }
  readonly set: (name: "roster", value: RosterClaims) => void
}

type ExpressMiddleware = (
  request: NodeRequest,
  response: NodeResponse,
  next: (error?: unknown) => void
) => void
type HonoMiddleware = (context: HonoContext, next: () => Promise<void>) => Promise<Response | undefined>

const isHono = (first: unknown): first is HonoContext =>
  typeof first === "object" &&
  first !== null &&
  "req" in first &&
  typeof (first as HonoContext).set === "function"

/**
 * Middleware that lets through only requests whose access token holds `permission` where the
 * request is about (`organization`, given the Express request or the Hono context), answering the
 * others 401 or 403 problem details. The same value is Express/Connect middleware (the claims at
 * `req.roster`) and Hono middleware (at `c.get("roster")`).
 */
export const requirePermission = <Request = never>(
  verifier: RosterVerifier,
  permission: string,
  options: AuthorizeOptions<Request>
): ExpressMiddleware & HonoMiddleware => {
  const organization = options.organization as (request: unknown) => string | Promise<string>
  const middleware = (
    first: NodeRequest | HonoContext,
    second: NodeResponse | (() => Promise<void>),
    third?: (error?: unknown) => void
  ) => {
    if (isHono(first)) {
      const next = second as () => Promise<void>
      return decide(verifier, permission, first.req.header("authorization"), () => organization(first)).then(
        async (decided) => {
          if (isRefusal(decided))
            return new Response(decided.body, { status: decided.status, headers: decided.headers })
          first.set("roster", decided)
          await next()
          return undefined
        }
      )
    }
    const request = first
    const response = second as NodeResponse
    const header = request.headers.authorization
    decide(verifier, permission, typeof header === "string" ? header : undefined, () =>
      organization(request)
    ).then(
      (decided) => {
        if (!isRefusal(decided)) {
          request.roster = decided
          return third?.()
        }
        response.statusCode = decided.status
        for (const [name, value] of Object.entries(decided.headers)) response.setHeader(name, value)
        response.end(decided.body)
      },
      (error: unknown) => third?.(error)
    )
    return undefined
  }
  return middleware as unknown as ExpressMiddleware & HonoMiddleware
}
