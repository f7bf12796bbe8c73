import { createHash } from "node:crypto"
import { DateTime, Effect, Exit } from "effect"
import type { IdempotencyKey, IdempotencyStore, IdempotentStart, Principal } from "../../../core/index.ts"
import { permissionIdOf, permissionsOf, StoredResponse } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { withBodyRead } from "./body-in-hand.ts"
import { type Refusal, render, toResponse } from "./guards.ts"
import { routeOf } from "./route-table.ts"

/** How long a key and its answer are kept. */
const retainedMs = 24 * 60 * 60 * 1000

/** 1 to 255 printable ASCII characters. */
const keyPattern = /^[\x20-\x7E]{1,255}$/u

const sha256 = (text: string | Uint8Array) => createHash("sha256").update(text).digest("base64url")

/** Answers that ran nothing are not kept: a repeat may run afresh. */
const keeps = (status: number) => status < 500 && status !== 429

/** Whether a 503 says the change may have taken effect (`outcome_unknown`). */
const mayHaveChanged = async (response: Response) =>
  response.status === 503 &&
  (
    (await response
      .clone()
      .json()
      .catch(() => undefined)) as { readonly code?: string } | undefined
  )?.code === "outcome_unknown"

/** Whose keys a principal uses: the account, the master key, or the local operator, never a raw credential. */
const scopeOf = (principal: Principal) =>
  principal._tag === "Member"
    ? `member:${principal.member.id}`
    : principal._tag === "Master"
      ? "master"
      : "open"

/**
 * `Idempotency-Key` on POST and PATCH of authenticated routes: the first request with a key runs and
 * its answer is kept for 24 h; a repeat with the same method, path and body gets that answer again
 * without running (`Idempotent-Replayed: true`); another request with the key is 422, a repeat while
 * the first runs 409. Keys are scoped by the principal: a stored answer is replayed only to the one
 * that stored it, once the repeat has authenticated and still holds the route's permission. A
 * request that fails authentication, or is not allowed, claims nothing and is answered by its route.
 */
export const makeIdempotency = async (
  store: IdempotencyStore["Service"],
  authenticate: (authorization: string | null) => Promise<Principal | undefined>
) => {
  const badKey = await render(
    new Problem.ValidationFailed({
      detail: "The request's headers are not valid: see errors",
      errors: [{ path: "headers.idempotency-key", message: "Expected 1 to 255 printable ASCII characters" }]
    })
  )
  const inProgress = await render(
    new Problem.RequestInProgress({
      detail: "The first request with this Idempotency-Key has not finished; retry shortly"
    }),
    { "retry-after": "1" }
  )
  const reused = await render(
    new Problem.IdempotencyKeyReused({
      detail: "This Idempotency-Key was sent with another method, path or body; use a new key"
    })
  )
  const unavailable = await render(
    new Problem.Unavailable({
      detail: "The store did not answer; the request changed nothing and may be retried"
    })
  )

  const refusals: Record<Exclude<IdempotentStart["_tag"], "Run" | "Replay">, Refusal> = {
    InProgress: inProgress,
    Reused: reused
  }

  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromiseExit(effect)

  return {
    /**
     * POST and PATCH of a route that has them, with a key: nothing else is claimed or refused. A
     * request without the credentials its route needs runs nothing either way: it is answered 401.
     */
    applies: (request: Request) => {
      if (request.method !== "POST" && request.method !== "PATCH") return false
      if (!request.headers.has("idempotency-key")) return false
      return routeOf(request.method, new URL(request.url).pathname)?.authenticated === true
    },
    /** Serves `request` through `route`, or answers it without. */
    serve: async (request: Request, route: (request: Request) => Promise<Response>): Promise<Response> => {
      const value = request.headers.get("idempotency-key") ?? ""
      if (!keyPattern.test(value)) return toResponse(badKey)
      const url = new URL(request.url)
      const principal = await authenticate(request.headers.get("authorization"))
      const permission = routeOf(request.method, url.pathname)?.permission
      if (
        principal === undefined ||
        (permission !== undefined && !permissionsOf(principal).has(permissionIdOf(permission)))
      ) {
        return route(request)
      }
      const key: IdempotencyKey = { scope: scopeOf(principal), key: value }
      const body = new Uint8Array(await request.arrayBuffer())
      const requestHash = sha256(`${request.method} ${url.pathname}${url.search}\n${sha256(body)}`)
      const now = Date.now()
      const started = await run(
        store.start(key, requestHash, DateTime.makeUnsafe(now), DateTime.makeUnsafe(now + retainedMs))
      )
      if (Exit.isFailure(started)) return toResponse(unavailable)
      const start = started.value
      if (start._tag === "Replay") {
        const replayed = new Response(start.response.body, {
          status: start.response.status,
          headers: start.response.headers.map(({ name, value }) => [name, value] as [string, string])
        })
        replayed.headers.set("idempotent-replayed", "true")
        return replayed
      }
      if (start._tag !== "Run") return toResponse(refusals[start._tag])
      const response = await route(withBodyRead(request, body))
      if (!keeps(response.status)) {
        // A change that may have taken effect keeps its key: a retry must not run it a second time.
        if (!(await mayHaveChanged(response))) await run(store.release(key))
        return response
      }
      const text = await response.clone().text()
      const headers: Array<{ name: string; value: string }> = []
      response.headers.forEach((headerValue, name) => {
        if (name !== "x-request-id") headers.push({ name, value: headerValue })
      })
      await run(store.finish(key, new StoredResponse({ status: response.status, headers, body: text })))
      return response
    }
  }
}
