import { Cause, type Context, Option, type Redacted } from "effect"
import { authenticateScim, type CorePorts } from "../../core/index.ts"
import { loggableCause } from "../log/loggable.ts"
import { type Discovery, discoveryAt } from "./discovery.ts"
import { type Call, type Endpoints, endpointsOf, listAnswer } from "./endpoints.ts"
import { groups, users } from "./kinds.ts"
import { bodyOf, listRequestOf, methodNotAllowed } from "./requests.ts"
import type { Resource } from "./resources.ts"
import { makeRunner, UseCaseDefect } from "./runner.ts"
import { failureResponse, notFound, ScimFailure, scimResponse } from "./scim-error.ts"

/**
 * What the edge that mounts SCIM hands it of a request: its id, the bearer token it read (or that
 * the header was not one), and where a defect's cause is told back for the request's log line.
 */
export interface ScimRequest {
  readonly requestId: string
  readonly bearer: Option.Option<Redacted.Redacted<string>> | "malformed"
  failure?: string
}

/** Where SCIM is served. */
export const scimPrefix = "/scim/v2"

/**
 * The SCIM 2.0 service of every organisation (RFC 7643, 7644) as a web handler for the paths under
 * `/scim/v2`: a SCIM token names the organisation, and every change runs through the core's use cases.
 */
export const makeScimHandler = (services: Context.Context<CorePorts>, publicOrigin: string | undefined) => {
  const run = makeRunner(services)
  const endpoints = { Users: endpointsOf(users, run), Groups: endpointsOf(groups, run) }
  let discovery: { readonly base: string; readonly documents: Discovery } | undefined
  const discoveryFor = (base: string) => {
    if (discovery?.base !== base) discovery = { base, documents: discoveryAt(base) }
    return discovery.documents
  }

  const discoveryAnswer = (documents: Discovery, method: string, segments: ReadonlyArray<string>) => {
    if (method !== "GET") return methodNotAllowed("GET")
    const [name, id] = segments
    if (name === "ServiceProviderConfig" && id === undefined)
      return scimResponse(200, documents.serviceProviderConfig)
    const [all, byId] =
      name === "Schemas"
        ? [documents.schemas, documents.schemaById as Map<string, object>]
        : [documents.resourceTypes, documents.resourceTypeById as Map<string, object>]
    if (id === undefined) return scimResponse(200, all)
    const found = byId.get(id)
    return found === undefined ? failureResponse(notFound(`No ${name} ${id}`)) : scimResponse(200, found)
  }

  const resourceAnswer = async (
    call: Call,
    served: Endpoints,
    segments: ReadonlyArray<string>,
    query: URLSearchParams
  ) => {
    const method = call.request.method
    const projection = {
      attributes: query.get("attributes") ?? undefined,
      excludedAttributes: query.get("excludedAttributes") ?? undefined
    }
    const [, id, extra] = segments
    if (extra !== undefined) return failureResponse(notFound("No such endpoint"))
    if (id === ".search") {
      if (method !== "POST") return methodNotAllowed("POST")
      return search(call, served, await bodyOf(call.request))
    }
    if (id === undefined) {
      if (method === "GET") {
        const listing = listRequestOf(Object.fromEntries(query))
        return listing instanceof ScimFailure ? failureResponse(listing) : served.list(call, listing)
      }
      if (method !== "POST") return methodNotAllowed("GET, POST")
      const body = await bodyOf(call.request)
      return body instanceof ScimFailure ? failureResponse(body) : served.create(call, body, projection)
    }
    switch (method) {
      case "GET":
        return served.get(call, id, projection)
      case "DELETE":
        return served.remove(call, id)
      case "PUT":
      case "PATCH": {
        const body = await bodyOf(call.request)
        if (body instanceof ScimFailure) return failureResponse(body)
        return method === "PUT"
          ? served.replace(call, id, body, projection)
          : served.patch(call, id, body, projection)
      }
      default:
        return methodNotAllowed("GET, PUT, PATCH, DELETE")
    }
  }

  /** A SearchRequest (POST `.search`): of one kind of resource, or of both at the root. */
  const search = async (call: Call, served: Endpoints | undefined, body: unknown) => {
    if (body instanceof ScimFailure) return failureResponse(body)
    const listing = listRequestOf(
      typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {}
    )
    if (listing instanceof ScimFailure) return failureResponse(listing)
    if (served !== undefined) return served.list(call, listing)
    const all: Array<Resource> = []
    for (const kind of [users, groups] as const) {
      const listed = await run(call.scope, kind.list(call.actor, call.base))
      if (listed instanceof ScimFailure) return failureResponse(listed)
      all.push(...listed)
    }
    return listAnswer(all, listing)
  }

  const serve = async (request: Request, routed: ScimRequest) => {
    const url = new URL(request.url)
    const base = `${publicOrigin ?? url.origin}${scimPrefix}`
    const segments = url.pathname.slice(scimPrefix.length).split("/").slice(1).map(decodeURIComponent)
    const bearer = routed.bearer === "malformed" ? Option.none() : routed.bearer
    const caller = await run(undefined, authenticateScim(bearer))
    if (caller instanceof ScimFailure) return failureResponse(caller)
    const call: Call = {
      actor: caller.principal,
      scope: { organizationId: caller.organizationId, requestId: routed.requestId },
      base,
      request
    }
    const [name] = segments
    if (name === "ServiceProviderConfig" || name === "Schemas" || name === "ResourceTypes") {
      return discoveryAnswer(discoveryFor(base), request.method, segments)
    }
    if (name === "Users" || name === "Groups")
      return resourceAnswer(call, endpoints[name], segments, url.searchParams)
    if (name === ".search" && segments.length === 1) {
      if (request.method !== "POST") return methodNotAllowed("POST")
      return search(call, undefined, await bodyOf(request))
    }
    return failureResponse(notFound("No such endpoint"))
  }

  return async (request: Request, routed: ScimRequest): Promise<Response> => {
    try {
      return await serve(request, routed)
    } catch (defect) {
      if (defect instanceof URIError) return failureResponse(notFound("No such endpoint"))
      // Logged by the edge with the request's line, never sent.
      routed.failure = loggableCause(defect instanceof UseCaseDefect ? defect.cause : Cause.die(defect))
      return failureResponse(new ScimFailure(500, "The server failed; read the resource before retrying"))
    }
  }
}
