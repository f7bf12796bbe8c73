import { Context } from "effect"
import { HttpApi } from "effect/http-api"
import type { AuditTarget, PermissionKey } from "../../../core/index.ts"
import { scimRouteTemplate } from "../../scim/route-template.ts"
import {
  behindAuthentication,
  ChecksPassword,
  IgnoresIdempotencyKey,
  ReadsTarget,
  RequiresPermission,
  ShownOnce
} from "../api/middleware.ts"
import { openApiPath, RosterApi } from "../api/roster-api.ts"
import { MessageView } from "../views.ts"

interface Route {
  readonly method: string
  /** Its path as the OpenAPI document writes it: `/api/v1/team/roles/{id}`. */
  readonly template: string
  readonly pattern: RegExp
  /** Whether the route needs credentials (outside open local mode). */
  readonly authenticated: boolean
  /** What its use case requires of the caller, where the endpoint declares it. */
  readonly permission?: PermissionKey | undefined
  /** Whether its success is a message (`MessageView`) rather than the record it changed. */
  readonly answersMessage: boolean
  /** The fields of its success holding a secret shown once (see `ShownOnce`). */
  readonly shownOnce: ReadonlyArray<string>
  /** Whether an Idempotency-Key is ignored (see `IgnoresIdempotencyKey`). */
  readonly ignoresIdempotencyKey?: boolean
}

const toPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z0-9_]+/g, "[^/]+")}/?$`)

const routes: Array<Route> = [
  {
    method: "GET",
    template: openApiPath,
    pattern: toPattern(openApiPath),
    authenticated: false,
    answersMessage: false,
    shownOnce: []
  }
]
const passwordChecks = new Set<string>()
const readPaths = new Map<AuditTarget["type"], string>()
const operationIds = new Map<string, string>()
HttpApi.reflect(RosterApi, {
  onGroup: () => {},
  onEndpoint: ({ group, endpoint, middleware, mergedAnnotations }) => {
    operationIds.set(`${endpoint.method} ${endpoint.path}`, `${group.identifier}.${endpoint.identifier}`)
    routes.push({
      method: endpoint.method,
      template: endpoint.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}"),
      pattern: toPattern(endpoint.path),
      authenticated: behindAuthentication(middleware),
      permission: Context.get(mergedAnnotations, RequiresPermission),
      answersMessage: [...endpoint.success].some((schema) => schema.ast === MessageView.ast),
      shownOnce: Context.get(mergedAnnotations, ShownOnce),
      ignoresIdempotencyKey: Context.get(mergedAnnotations, IgnoresIdempotencyKey)
    })
    if (Context.get(mergedAnnotations, ChecksPassword))
      passwordChecks.add(`${endpoint.method} ${endpoint.path}`)
    const reads = Context.get(mergedAnnotations, ReadsTarget)
    if (reads !== undefined) readPaths.set(reads, endpoint.path)
  }
})

/**
 * The path of the operation (`team.listRoles`) served by `method` at a path without parameters; an
 * operation that is not such a route is a mistake of the code, refused when the server is built.
 */
export const literalPathOf = (method: "GET" | "POST", operation: string): string => {
  for (const [route, id] of operationIds) {
    if (id === operation && route.startsWith(`${method} `) && !route.includes(":")) {
      return route.slice(method.length + 1)
    }
  }
  throw new Error(`${operation} is not an operation served by ${method} at a path without parameters`)
}

/** The operation (`team.addRole`) the router's route at `method` and `path` (`/api/v1/team/roles/:id`) serves. */
export const operationIdOf = (method: string, path: string) => operationIds.get(`${method} ${path}`)

/**
 * Where the current state of an audit target is read (the endpoint declaring `ReadsTarget` for
 * its type), its id in the path where the path takes one; none for a type no endpoint reads.
 */
export const readPathOf = (type: AuditTarget["type"], id: string): string | undefined =>
  readPaths.get(type)?.replace(/:[A-Za-z0-9_]+/u, encodeURIComponent(id))

/** Whether the route at `method` and `path` checks a caller's password (see ChecksPassword). */
export const checksPassword = (method: string, path: string) => passwordChecks.has(`${method} ${path}`)

/** The route serving `method` at `path`, if any. */
export const routeOf = (method: string, path: string): Route | undefined =>
  routes.find((route) => route.method === method && route.pattern.test(path))

const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/** Templates of the paths seen last, so that a busy path is matched against the routes once. */
const templates = new Map<string, string>()
const templatesKept = 4096
const longestCachedPath = 256

const templateOf = (method: string, path: string) => {
  const key = `${method} ${path}`
  let template = templates.get(key)
  if (template === undefined) {
    template = routeOf(method === "HEAD" ? "GET" : method, path)?.template ?? "unmatched"
    // Paths carry ids, so they are many: the cache starts over rather than grow without end, and
    // keeps no path longer than any route's (a long one is matched each time, at no one's cost but its own).
    if (templates.size >= templatesKept) templates.clear()
    if (path.length <= longestCachedPath) templates.set(key, template)
  }
  return template
}

/**
 * A request's method and route as metrics label them: the route's template, never the raw path
 * (which holds ids), and `unmatched` for what no route serves, so that the labels stay few.
 */
export const routeLabelsOf = (method: string, path: string, servedAtEdge: ReadonlyArray<string>) => {
  const known = knownMethods.has(method) ? method : "other"
  if (servedAtEdge.includes(path)) return { method: known, route: path }
  return {
    method: known,
    route: path.startsWith("/scim/v2/") ? scimRouteTemplate(path) : templateOf(known, path)
  }
}

/** The methods of each route without a parameter in its path (`/api/v1/auth/passkeys/login`). */
const literalMethods = new Map<string, Set<string>>()
for (const route of routes) {
  if (route.template.includes("{")) continue
  const methods = literalMethods.get(route.template) ?? new Set<string>()
  methods.add(route.method)
  if (route.method === "GET") methods.add("HEAD")
  literalMethods.set(route.template, methods)
}

/**
 * The methods a route without parameters accepts at this very path, when `method` is not one of
 * them: `PATCH /auth/passkeys/login` names the sign-in (POST), not a passkey whose id is "login",
 * so it is a 405 before the router can read "login" as an id.
 */
export const literalRouteRefusing = (method: string, path: string): ReadonlyArray<string> | undefined => {
  const methods = literalMethods.get(path)
  return methods === undefined || methods.has(method) ? undefined : [...methods]
}

/** The methods some route accepts at this path: when the router found none for the request's, a 405 lists them. */
export const allowedMethods = (path: string): ReadonlyArray<string> => {
  const methods = new Set<string>()
  for (const route of routes) if (route.pattern.test(path)) methods.add(route.method)
  if (methods.has("GET")) methods.add("HEAD")
  return [...methods]
}
