import { Context, Effect, type ManagedRuntime, Tracer } from "effect"
import {
  CurrentOrganization,
  defaultOrganizationId,
  identifyCaller,
  type Principal
} from "../../core/index.ts"
import type { KeyedRoute } from "./edge/idempotency.ts"
import { literalGetPathOf } from "./edge/route-table.ts"
import type { Caller, Routed } from "./edge/routed.ts"
import type { HttpServices } from "./handed-services.ts"
import { type AnswerText, membersPage, rolesPage, whoAmI } from "./read-answers.ts"

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

/** A read's answer, or the router's turn, with the caller when its credentials were identified. */
type Outcome = AnswerText | { readonly caller: Caller | undefined }

const toRouter: Outcome = { caller: undefined }

const mfaPending = (principal: Principal) => principal._tag === "Member" && principal.mfaPending === true

/**
 * Runs `read` as the caller the request's credentials identify. Whatever it does not answer (bad
 * or missing credentials, a session waiting for its second factor, a refusal, a failure) is left
 * to the router, which answers it as every route does: its problems are declared in one place.
 */
const attempt = (read: Read, record: Routed): Effect.Effect<Outcome, never, HttpServices> => {
  const { bearer, organization } = record
  if (bearer === "malformed" || organization === "") return Effect.succeed(toRouter)
  return identifyCaller(bearer, organization).pipe(
    Effect.flatMap((caller): Effect.Effect<Outcome, never, HttpServices> => {
      if (mfaPending(caller.principal)) return Effect.succeed({ caller })
      const answer = read(caller.principal, record.path)
      const acting =
        caller.organizationId === defaultOrganizationId
          ? answer
          : Effect.provideService(answer, CurrentOrganization, caller.organizationId)
      return Effect.catchCause(acting, () => Effect.succeed({ caller }))
    }),
    Effect.catchCause(() => Effect.succeed(toRouter))
  )
}

const answered = (outcome: Outcome): outcome is AnswerText => "text" in outcome

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
export const makeDirectReads = <E>(
  runtime: ManagedRuntime.ManagedRuntime<HttpServices, E>,
  services: Context.Context<HttpServices>
) => {
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
      runtime
        .runPromise(attempt(read, record))
        .then((outcome) =>
          answered(outcome)
            ? toResponse(outcome)
            : route(request, outcome.caller === undefined ? {} : { caller: outcome.caller })
        )
  }
}
