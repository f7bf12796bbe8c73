import { Effect } from "effect"
import type { Principal } from "../../core/index.ts"
import { accessTokenAnswer, authorizeAnswer, issuerFor, plainAuthorizeInput } from "./call-answers.ts"
import { bodyTextOf } from "./edge/body-in-hand.ts"
import type { EdgeOptions } from "./edge/options.ts"
import type { Routed } from "./edge/routed.ts"

/**
 * The JSON of the body the edge read; `undefined` for none, or for one that is no JSON (a
 * byte-order mark included: the router decides what it makes of one).
 */
const jsonOf = (request: Request): unknown => {
  const text = bodyTextOf(request)
  if (text === undefined) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** What the router answers itself, from the body as its endpoint's schema reads it. */
const notPlain = Effect.fail("not plain" as const)

/**
 * The calls products repeat on their own requests, by operation: `POST /authorize` and
 * `POST /auth/token`. Each answers what its router handler answers, with the same function; a body
 * that is not plainly well formed is the router's to refuse, with what is wrong.
 */
export const directCalls = (options: Pick<EdgeOptions, "publicUrl">) => ({
  "authorization.authorize": (actor: Principal, request: Request) => {
    const input = plainAuthorizeInput(jsonOf(request))
    return input === undefined ? notPlain : authorizeAnswer(actor, input)
  },
  "auth.accessToken": (actor: Principal, request: Request, record: Routed) =>
    accessTokenAnswer(actor, issuerFor(request.url, record.connection?.mountPath ?? "", options.publicUrl))
})
