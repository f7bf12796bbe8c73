import { Cause, Context, Effect, type ManagedRuntime, Option, Schema, Tracer } from "effect"
import { HttpServerRequest } from "effect/http"
import {
  CurrentOrganization,
  defaultOrganizationId,
  identifyCaller,
  owesSecondFactor,
  type Principal,
  StoreUnavailable
} from "../../core/index.ts"
import { directCalls } from "./direct-calls.ts"
import { toResponse as refusalResponse, render } from "./edge/guards.ts"
import type { KeyedRoute } from "./edge/idempotency.ts"
import type { EdgeOptions } from "./edge/options.ts"
import { checksPassword, literalPathOf, routeOf } from "./edge/route-table.ts"
import type { Caller, Routed } from "./edge/routed.ts"
import { targetOfUrl } from "./edge/url-parts.ts"
import type { HttpServices } from "./handed-services.ts"
import { type AnswerText, repeatedReads } from "./read-answers.ts"
import { toProblem } from "./to-problem.ts"

/**
 * A read of `repeatedReads` as it is answered here: the parameters of the URL as the router reads
 * them (a repeated one as a list), decoded by the schema of its endpoint's own fields, then its
 * answer. A URL with no query, most of them, builds no `URL`: its query is the one decoded from none.
 */
const toRead = <Q, E>(read: {
  readonly query: Schema.Codec<Q, unknown>
  readonly answer: (actor: Principal, query: Q, url: string) => Effect.Effect<AnswerText, E, HttpServices>
}): Read => {
  const decode = Schema.decodeUnknownEffect(Schema.toCodecArrayFromSingle(read.query))
  const none = decode({})
  return (actor, request) =>
    Effect.flatMap(
      request.url.includes("?") ? decode(HttpServerRequest.searchParamsFromURL(new URL(request.url))) : none,
      (query) => read.answer(actor, query, targetOfUrl(request.url))
    )
}

/** An answer made before the router, for the caller its credentials identified. */
type Read = (
  actor: Principal,
  request: Request,
  record: Routed
) => Effect.Effect<AnswerText, unknown, HttpServices>

/**
 * A read's answer; the store's outage, answered as the router would without asking the store
 * again; or the router's turn, with the caller when its credentials were identified.
 */
type Outcome = AnswerText | typeof storeDown | { readonly caller: Caller | undefined }

const storeDown = { storeDown: true } as const
const toRouter: Outcome = { caller: undefined }

const isStoreDown = (cause: Cause.Cause<unknown>) =>
  Option.getOrUndefined(Cause.findErrorOption(cause)) instanceof StoreUnavailable

const otherwise =
  (caller: Caller | undefined) =>
  (cause: Cause.Cause<unknown>): Effect.Effect<Outcome> =>
    Effect.succeed(isStoreDown(cause) ? storeDown : caller === undefined ? toRouter : { caller })

/**
 * Runs `read` as the caller the request's credentials identify, on its query. Whatever it does not
 * answer (bad or missing credentials, a session waiting for its second factor, a query its endpoint
 * refuses, a refusal, a defect) is left to the router, which answers it as every route does: its
 * problems are declared in one place. A store that did not answer is not asked again by the
 * router: its 503 is answered here.
 */
const attempt = (
  read: Read,
  request: Request,
  record: Routed
): Effect.Effect<Outcome, never, HttpServices> => {
  const { bearer, organization } = record
  if (bearer === "malformed" || organization === "") return Effect.succeed(toRouter)
  return identifyCaller(bearer, organization).pipe(
    Effect.flatMap((caller): Effect.Effect<Outcome, never, HttpServices> => {
      if (owesSecondFactor(caller.principal)) return Effect.succeed({ caller })
      const answer = read(caller.principal, request, record)
      const acting =
        caller.organizationId === defaultOrganizationId
          ? answer
          : Effect.provideService(answer, CurrentOrganization, caller.organizationId)
      return Effect.catchCause(acting, otherwise(caller))
    }),
    Effect.catchCause(otherwise(undefined))
  )
}

const encoder = new TextEncoder()

/** The answer as the router sends a JSON text: its bytes, their length and their type. */
const toResponse = ({ text, headers }: AnswerText) => {
  const body = encoder.encode(text)
  return new Response(body, {
    headers: { "content-type": "application/json", "content-length": String(body.length), ...headers }
  })
}

/**
 * A call answered before the router must be one the edge has nothing more to do for: no
 * Idempotency-Key to apply, no password check to admit. A route changed to need either is refused
 * when the server is built, rather than served around the edge.
 */
const callPathOf = (operation: string) => {
  const path = literalPathOf("POST", operation)
  if (routeOf("POST", path)?.ignoresIdempotencyKey !== true || checksPassword("POST", path)) {
    throw new Error(
      `${operation} cannot be answered before the router: the edge applies its Idempotency-Key or its password checks`
    )
  }
  return path
}

/**
 * Answers the repeated reads before the router: a GET without a body at a read's path, whatever its
 * query; and the repeated calls, a POST at a call's path, its body read. The router's part of such a
 * request (its context, its middleware, converting its answer) cost more than the read itself. A
 * traced server has none: the router gives each request its span, and its handlers answer with the
 * same `repeatedReads` and `directCalls`' answers.
 */
export const makeDirectReads = async <E>(
  runtime: ManagedRuntime.ManagedRuntime<HttpServices, E>,
  services: Context.Context<HttpServices>,
  options: Pick<EdgeOptions, "publicUrl"> = {}
) => {
  const unavailable = await render(toProblem(new StoreUnavailable()))
  const traced = Context.getOrUndefined(services, Tracer.Tracer) !== undefined
  const reads = new Map<string, Read>(
    traced
      ? []
      : Object.entries(repeatedReads).map(([operation, read]) => [
          literalPathOf("GET", operation),
          // Each read's query schema and answer agree (`repeatedRead`); entries lose which is which.
          toRead(read as Parameters<typeof toRead<unknown, unknown>>[0])
        ])
  )
  const calls = new Map<string, Read>(
    traced
      ? []
      : Object.entries(directCalls(options)).map(([operation, call]) => [callPathOf(operation), call])
  )
  return {
    /** The read that answers `request` at `path`, if one does. */
    readOf: (request: Request, path: string): Read | undefined =>
      request.method === "GET" && request.body === null ? reads.get(path) : undefined,
    /** The call that answers `request` at `path` once its body is read, if one does. */
    callOf: (request: Request, path: string): Read | undefined =>
      request.method === "POST" ? calls.get(path) : undefined,
    answer: (read: Read, request: Request, record: Routed, route: KeyedRoute): Promise<Response> =>
      runtime.runPromise(attempt(read, request, record)).then((outcome) => {
        if ("text" in outcome) return toResponse(outcome)
        if ("storeDown" in outcome) return refusalResponse(unavailable)
        return route(request, outcome.caller === undefined ? {} : { caller: outcome.caller })
      })
  }
}
