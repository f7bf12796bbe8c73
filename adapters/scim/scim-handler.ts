import { Cause, type Context, Option, type Redacted } from "effect"
import { authenticateScim, type CorePorts } from "../../core/index.ts"
import { loggableCause } from "../log/loggable.ts"
import { type Discovery, discoveryAt } from "./discovery.ts"
import { type Call, endpointsOf } from "./endpoints.ts"
import { groups, users } from "./kinds.ts"
import { bodyOf, methodNotAllowed } from "./requests.ts"
import { makeRunner, UseCaseDefect } from "./runner.ts"
import { discoveryAnswer, resourceAnswer, searchAnswer } from "./scim-answers.ts"
import { failureResponse, notFound, ScimFailure } from "./scim-error.ts"

/**
 * What the edge that mounts SCIM hands it of a request: its id, the bearer token it read (or that
 * the header was not one), and where a defect's cause is told back for the request's log line.
 */
export interface ScimRequest {
  readonly requestId: string
  readonly bearer: Option.Option<Redacted.Redacted<string>> | "malformed"
  /** The path the host serves Roster under, which resources' locations carry. */
  readonly connection?: { readonly mountPath?: string | undefined } | undefined
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
  const answerResource = resourceAnswer(run)
  const search = searchAnswer(run)

  const serve = async (request: Request, routed: ScimRequest) => {
    const url = new URL(request.url)
    const base = `${publicOrigin ?? url.origin}${routed.connection?.mountPath ?? ""}${scimPrefix}`
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
      return answerResource(call, endpoints[name], segments, url.searchParams)
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
