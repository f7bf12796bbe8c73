import { createHash, randomBytes } from "node:crypto"
import { DateTime, Effect, Exit, Option, Schedule } from "effect"
import type { AuditLog, IdempotencyKey, IdempotencyStore, Principal } from "../../../core/index.ts"
import { permissionIdOf, permissionsOf } from "../../../core/index.ts"
import { withBodyRead } from "./body-in-hand.ts"
import { answerCompleted } from "./completed.ts"
import { toResponse } from "./guards.ts"
import {
  keeps,
  mayHaveChanged,
  renderIdempotencyRefusals,
  replayed,
  toStored
} from "./idempotency-answers.ts"
import { routeOf } from "./route-table.ts"
import type { Caller, Credentials } from "./routed.ts"

/** How long a key and its answer are kept. */
const retainedMs = 24 * 60 * 60 * 1000

/**
 * How long a request holds its key alone: a repeat after that, of a request that never answered
 * (its process died, or the store was gone when it gave the key up), resumes it. Far longer than a
 * request runs: a store that does not answer fails each call within seconds.
 */
const leaseMs = 30 * 1000

/** 1 to 255 printable ASCII characters. */
const keyPattern = /^[\x20-\x7E]{1,255}$/u

const sha256 = (text: string | Uint8Array) => createHash("sha256").update(text).digest("base64url")

/**
 * Whose keys a caller uses: the account, the API key, the master key, or the local operator (never
 * a raw credential), in the organisation the request acts on.
 */
const scopeOf = ({ principal, organizationId }: Caller) => `${organizationId}/${principalScope(principal)}`

const principalScope = (principal: Principal): string => {
  switch (principal._tag) {
    case "Member":
      return `member:${principal.member.id}`
    case "ApiKey":
      return `api_key:${principal.keyId}`
    case "Scim":
      return `scim:${principal.tokenId}`
    case "Master":
      return "master"
    case "OpenLocal":
      return "open"
  }
}

/**
 * A route, handed the name of the claim its request runs under (for its change's audit entry) and
 * the caller its credentials identified, once known.
 */
export type KeyedRoute = (
  request: Request,
  known?: { readonly requestKey?: string; readonly caller?: Caller }
) => Promise<Response>

/**
 * A key given up while the store is down is given up when it answers again, so that a repeat need
 * not wait out the lease; in the background, the answer already sent.
 */
const untilStored = <E>(giveUp: Effect.Effect<void, E>) =>
  void Effect.runFork(
    Effect.ignore(Effect.retry(giveUp, { schedule: Schedule.spaced("1 second"), times: 30 }))
  )

/**
 * `Idempotency-Key` on POST and PATCH of authenticated routes: the first request with a key runs and
 * its answer is kept for 24 h; a repeat with the same method, path and body gets that answer again
 * without running (`Idempotent-Replayed: true`); another request with the key is 422, a repeat while
 * the first runs 409. Keys are scoped by the principal: a stored answer is replayed only to the one
 * that stored it, once the repeat has authenticated and still holds the route's permission. A
 * request that fails authentication, or is not allowed, claims nothing and is answered by its route.
 *
 * A request that ended not knowing whether its change took effect (503 `outcome_unknown`, or its
 * process died) leaves its key unanswered, and a repeat resumes it: it looks for the audit entry the
 * change was written with, under a name given to the claim (never published), and answers from it if the change was made, or
 * runs it if not. So the change is made exactly once.
 */
export const makeIdempotency = async (
  store: IdempotencyStore["Service"],
  audit: AuditLog["Service"],
  authenticate: (credentials: Credentials) => Promise<Caller | undefined>
) => {
  const refusals = await renderIdempotencyRefusals()
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromiseExit(effect)

  /** Keeps an answer for the repeats; gives the key back, or its lease up, when there is none to keep. */
  const settle = async (
    key: IdempotencyKey,
    lease: DateTime.Utc,
    response: Response,
    secrets: ReadonlyArray<string> = []
  ) => {
    if (keeps(response.status)) {
      await run(store.finish(key, await toStored(response, secrets)))
    } else {
      // A change that may have taken effect keeps its key: a repeat resumes it, never runs it twice.
      const changed = await mayHaveChanged(response)
      untilStored(changed ? store.abandon(key, lease) : store.release(key, lease))
    }
    return response
  }

  return {
    /**
     * POST and PATCH of a route that has them, with a key, unless the route ignores keys: nothing
     * else is claimed or refused. A request without the credentials its route needs runs nothing
     * either way: it is answered 401.
     */
    applies: (request: Request) => {
      if (request.method !== "POST" && request.method !== "PATCH") return false
      if (!request.headers.has("idempotency-key")) return false
      const route = routeOf(request.method, new URL(request.url).pathname)
      return route?.authenticated === true && route.ignoresIdempotencyKey !== true
    },
    /** Serves `request` through `route`, or answers it without. */
    serve: async (request: Request, credentials: Credentials, route: KeyedRoute): Promise<Response> => {
      const value = request.headers.get("idempotency-key") ?? ""
      if (!keyPattern.test(value)) return toResponse(refusals.badKey)
      const url = new URL(request.url)
      const caller = await authenticate(credentials)
      const target = routeOf(request.method, url.pathname)
      const permission = target?.permission
      if (
        caller === undefined ||
        (permission !== undefined && !permissionsOf(caller.principal).has(permissionIdOf(permission)))
      ) {
        return route(request)
      }
      const key: IdempotencyKey = { scope: scopeOf(caller), key: value }
      const body = new Uint8Array(await request.arrayBuffer())
      const now = Date.now()
      const lease = DateTime.makeUnsafe(now + leaseMs)
      const claimKey = randomBytes(16).toString("base64url")
      const started = await run(
        store.start(key, {
          requestHash: sha256(`${request.method} ${url.pathname}${url.search}\n${sha256(body)}`),
          requestKey: claimKey,
          now: DateTime.makeUnsafe(now),
          expiresAt: DateTime.makeUnsafe(now + retainedMs),
          leaseUntil: lease
        })
      )
      if (Exit.isFailure(started)) return toResponse(refusals.unavailable)
      const start = started.value
      if (start._tag === "Replay") return replayed(start.response)
      if (start._tag === "InProgress" || start._tag === "Reused") return toResponse(refusals[start._tag])
      const requestKey = start._tag === "Resume" ? start.requestKey : claimKey
      if (start._tag === "Resume") {
        const found = await run(audit.changeOfRequest(requestKey))
        if (Exit.isFailure(found)) {
          untilStored(store.abandon(key, lease))
          return toResponse(refusals.unavailable)
        }
        if (Option.isSome(found.value)) {
          const answer = await answerCompleted(
            found.value.value,
            request,
            target?.answersMessage === true,
            (read) => route(read, { caller })
          )
          answer.headers.set("idempotent-replayed", "true")
          return settle(key, lease, answer)
        }
      }
      return settle(
        key,
        lease,
        await route(withBodyRead(request, body), { requestKey, caller }),
        target?.shownOnce
      )
    }
  }
}
