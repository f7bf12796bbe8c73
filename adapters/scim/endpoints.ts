import type { Principal } from "../../core/index.ts"
import type { ResourceKind } from "./kinds.ts"
import { type ListRequest, listPage, listResponse } from "./listing.ts"
import { patched } from "./patch.ts"
import { type Projection, project } from "./projection.ts"
import type { Resource } from "./resources.ts"
import type { Runner, Scope } from "./runner.ts"
import { failureResponse, notFound, ScimFailure, scimResponse } from "./scim-error.ts"

/** What a SCIM request carries into its endpoint. */
export interface Call {
  readonly actor: Principal
  readonly scope: Scope
  readonly base: string
  readonly request: Request
}

const answer = (
  status: number,
  resource: Resource,
  projection: Projection,
  extra: Record<string, string> = {}
) => scimResponse(status, project(resource, projection), { etag: resource.meta.version, ...extra })

/** `If-Match` holds when absent, `*`, or naming the resource's current version (weak or strong). */
const matches = (request: Request, resource: Resource) => {
  const wanted = request.headers.get("if-match")
  if (wanted === null || wanted.trim() === "*") return true
  const bare = (tag: string) => tag.trim().replace(/^W\//u, "")
  const current = bare(resource.meta.version)
  return wanted.split(",").some((tag) => bare(tag) === current)
}

const preconditionFailed = new ScimFailure(412, "The resource changed since the version named in If-Match")

/** The page of `all` a list request asks for, as a ListResponse. */
export const listAnswer = (all: ReadonlyArray<Resource>, request: ListRequest & Projection) => {
  const listed = listPage(all, request)
  if (listed instanceof ScimFailure) return failureResponse(listed)
  return scimResponse(
    200,
    listResponse(
      listed,
      listed.page.map((resource) => project(resource, request))
    )
  )
}

/** The endpoints of one kind of resource, running its use cases through `run`. */
export const endpointsOf = <Id, Input>(kind: ResourceKind<Id, Input>, run: Runner) => {
  const read = (call: Call, id: Id) => run(call.scope, kind.get(call.actor, id, call.base))
  const unknown = (text: string) => notFound(`No ${kind.name.toLowerCase()} ${text} here`)

  /** The resource to change, if it exists and `If-Match` holds for it. */
  const current = async (call: Call, text: string): Promise<readonly [Id, Resource] | ScimFailure> => {
    const id = kind.idOf(text)
    if (id === undefined) return unknown(text)
    const found = await read(call, id)
    if (found instanceof ScimFailure) return found
    return matches(call.request, found) ? [id, found] : preconditionFailed
  }

  const replaceWith = async (call: Call, id: Id, body: unknown, projection: Projection) => {
    const input = kind.inputOf(body)
    if (input instanceof ScimFailure) return failureResponse(input)
    const replaced = await run(call.scope, kind.replace(call.actor, id, input))
    if (replaced instanceof ScimFailure) return failureResponse(replaced)
    const after = await read(call, id)
    return after instanceof ScimFailure ? failureResponse(after) : answer(200, after, projection)
  }

  return {
    list: async (call: Call, request: ListRequest & Projection) => {
      const narrowed =
        request.filter === undefined ? undefined : kind.candidates?.(call.actor, call.base, request.filter)
      const all = await run(call.scope, narrowed ?? kind.list(call.actor, call.base))
      return all instanceof ScimFailure ? failureResponse(all) : listAnswer(all, request)
    },
    get: async (call: Call, text: string, projection: Projection) => {
      const id = kind.idOf(text)
      const found = id === undefined ? unknown(text) : await read(call, id)
      return found instanceof ScimFailure ? failureResponse(found) : answer(200, found, projection)
    },
    create: async (call: Call, body: unknown, projection: Projection) => {
      const input = kind.inputOf(body)
      if (input instanceof ScimFailure) return failureResponse(input)
      const id = await run(call.scope, kind.create(call.actor, input))
      if (id instanceof ScimFailure) return failureResponse(id)
      const created = await read(call, id)
      if (created instanceof ScimFailure) return failureResponse(created)
      return answer(201, created, projection, { location: created.meta.location })
    },
    replace: async (call: Call, text: string, body: unknown, projection: Projection) => {
      const found = await current(call, text)
      if (found instanceof ScimFailure) return failureResponse(found)
      return replaceWith(call, found[0], body, projection)
    },
    patch: async (call: Call, text: string, body: unknown, projection: Projection) => {
      const found = await current(call, text)
      if (found instanceof ScimFailure) return failureResponse(found)
      const next = patched(found[1], body)
      if (next instanceof ScimFailure) return failureResponse(next)
      return replaceWith(call, found[0], next, projection)
    },
    remove: async (call: Call, text: string) => {
      const found = await current(call, text)
      if (found instanceof ScimFailure) return failureResponse(found)
      const removed = await run(call.scope, kind.remove(call.actor, found[0]))
      return removed instanceof ScimFailure ? failureResponse(removed) : new Response(null, { status: 204 })
    }
  }
}
export type Endpoints = ReturnType<typeof endpointsOf>
