import type { Discovery } from "./discovery.ts"
import { type Call, type Endpoints, listAnswer } from "./endpoints.ts"
import { groups, users } from "./kinds.ts"
import { bodyOf, listRequestOf, methodNotAllowed } from "./requests.ts"
import type { Resource } from "./resources.ts"
import type { Runner } from "./runner.ts"
import { failureResponse, notFound, ScimFailure, scimResponse } from "./scim-error.ts"

/** The discovery documents' answer: the service's configuration, its schemas, its resource types. */
export const discoveryAnswer = (documents: Discovery, method: string, segments: ReadonlyArray<string>) => {
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

/** A SearchRequest (POST `.search`): of one kind of resource, or of both at the root. */
export const searchAnswer =
  (run: Runner) => async (call: Call, served: Endpoints | undefined, body: unknown) => {
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

/** A request on Users or Groups: a list, a search, a creation, or a read, change or removal of one. */
export const resourceAnswer =
  (run: Runner) =>
  async (call: Call, served: Endpoints, segments: ReadonlyArray<string>, query: URLSearchParams) => {
    const method = call.request.method
    const projection = {
      attributes: query.get("attributes") ?? undefined,
      excludedAttributes: query.get("excludedAttributes") ?? undefined
    }
    const [, id, extra] = segments
    if (extra !== undefined) return failureResponse(notFound("No such endpoint"))
    if (id === ".search") {
      if (method !== "POST") return methodNotAllowed("POST")
      return searchAnswer(run)(call, served, await bodyOf(call.request))
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
