import { Cause, Context, Effect, type ManagedRuntime, Option, Tracer } from "effect"
import {
  CurrentOrganization,
  defaultOrganizationId,
  identifyCaller,
  owesSecondFactor,
  type Principal,
  StoreUnavailable
} from "../../core/index.ts"
import { toResponse as refusalResponse, render } from "./edge/guards.ts"
import type { KeyedRoute } from "./edge/idempotency.ts"
import { literalGetPathOf } from "./edge/route-table.ts"
import type { Caller, Routed } from "./edge/routed.ts"
import type { HttpServices } from "./handed-services.ts"
import { type AnswerText, membersPage, rolesPage, whoAmI } from "./read-answers.ts"
import { toProblem } from "./to-problem.ts"

type Read = (actor: Principal, url: string) => Effect.Effect<AnswerText, unknown, HttpServices>

/**
 * The reads every client repeats, by operation: each is its handler's own use case and text, so
 * the answer is the router's byte for byte. A route is named by its operation id, and one that is
 * not a GET without path parameters stops the server from being built.
 */
const directReads: Readonly<Record<string, Read>> = {
  "team.listRoles": (actor, url) => rolesPage(actor, {}, url),
  "team.listMembers": (actor, url) => membersPage(actor, {}, url),
  "auth.me": whoAmI
}

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
 * Runs `read` as the caller the request's credentials identify. Whatever it does not answer (bad
 * or missing credentials, a session waiting for its second factor, a refusal, a defect) is left
 * to the router, which answers it as every route does: its problems are declared in one place.
 * A store that did not answer is not asked again by the router: its 503 is answered here.
 */
const attempt = (read: Read, record: Routed): Effect.Effect<Outcome, never, HttpServices> => {
  const { bearer, organization } = record
  if (bearer === "malformed" || organization === "") return Effect.succeed(toRouter)
  return identifyCaller(bearer, organization).pipe(
    Effect.flatMap((caller): Effect.Effect<Outcome, never, HttpServices> => {
      if (owesSecondFactor(caller.principal)) return Effect.succeed({ caller })
      const answer = read(caller.principal, record.path)
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
 * Answers the repeated reads before the router: a GET without a query or a body, at a read's path.
 * The router's part of such a request (its context, its middleware, converting its answer) cost
 * more than the read itself. A traced server has none: the router gives each request its span.
 */
export const makeDirectReads = async <E>(
  runtime: ManagedRuntime.ManagedRuntime<HttpServices, E>,
  services: Context.Context<HttpServices>
) => {
  const unavailable = await render(toProblem(new StoreUnavailable()))
  const traced = Context.getOrUndefined(services, Tracer.Tracer) !== undefined
  const reads = new Map(
    traced ? [] : Object.entries(directReads).map(([operation, read]) => [literalGetPathOf(operation), read])
  )
  return {
    /** The read that answers `request` at `path`, if one does. */
    readOf: (request: Request, path: string): Read | undefined =>
      request.method === "GET" && request.body === null && !request.url.includes("?")
        ? reads.get(path)
        : undefined,
    answer: (read: Read, request: Request, record: Routed, route: KeyedRoute): Promise<Response> =>
      runtime.runPromise(attempt(read, record)).then((outcome) => {
        if ("text" in outcome) return toResponse(outcome)
        if ("storeDown" in outcome) return refusalResponse(unavailable)
        return route(request, outcome.caller === undefined ? {} : { caller: outcome.caller })
      })
  }
}
