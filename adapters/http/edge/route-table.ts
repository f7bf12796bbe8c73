import { HttpApi } from "effect/http-api"
import { openApiPath, RosterApi } from "../api/roster-api.ts"

interface Route {
  readonly method: string
  readonly pattern: RegExp
}

const toPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z0-9_]+/g, "[^/]+")}/?$`)

const routes: Array<Route> = [{ method: "GET", pattern: toPattern(openApiPath) }]
HttpApi.reflect(RosterApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint }) => routes.push({ method: endpoint.method, pattern: toPattern(endpoint.path) })
})

/** The methods some route accepts at this path: when the router found none for the request's, a 405 lists them. */
export const allowedMethods = (path: string): ReadonlyArray<string> => {
  const methods = new Set<string>()
  for (const route of routes) if (route.pattern.test(path)) methods.add(route.method)
  if (methods.has("GET")) methods.add("HEAD")
  return [...methods]
}
