import { HttpApi, type HttpApiGroup } from "effect/http-api"
import { sessionCookieName } from "../edge/session-cookie.ts"
import { bearer, behindAuthentication } from "./middleware.ts"

interface Document {
  readonly paths: Record<string, Record<string, { operationId?: string; security?: unknown }>>
  readonly components: { securitySchemes?: Record<string, unknown> }
}

const authenticatedOperations = <Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<string, Groups>
) => {
  const operations = new Set<string>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint, middleware }) => {
      if (behindAuthentication(middleware)) operations.add(`${group.identifier}.${endpoint.identifier}`)
    }
  })
  return operations
}

/**
 * Declares the bearer scheme, and the console's cookie, on every operation of `api` behind Authentication. That middleware is
 * a plain one (see its definition), which the document generator does not know as security, so
 * the document says it here, as the generator would have.
 */
export const declareBearerSecurity = <Groups extends HttpApiGroup.Constraint, D extends object>(
  api: HttpApi.HttpApi<string, Groups>,
  document: D
): D => {
  const { paths, components } = document as unknown as Document
  const operations = authenticatedOperations(api)
  for (const path of Object.values(paths))
    for (const operation of Object.values(path))
      if (operations.has(operation.operationId ?? ""))
        operation.security = [{ bearer: [] }, { [sessionCookieName]: [] }]
  components.securitySchemes = {
    ...components.securitySchemes,
    bearer: { type: "http", scheme: bearer.scheme },
    [sessionCookieName]: {
      type: "apiKey",
      in: "cookie",
      name: sessionCookieName,
      description:
        "The console's session (set by a sign-in sent with Roster-Session: cookie): counted only on " +
        "requests from the service's own origin, and never over an Authorization header"
    }
  }
  return document
}
