import type { Effect } from "effect"
import type { CorePorts } from "../../core/index.ts"
import type { WebhookVerifier } from "../payments/webhook-verifier.ts"
import type { RequestLog } from "./edge/request-log.ts"

/** The ports and adapters the HTTP service runs on: the core's, the webhook verifier and the request log. */
export type HttpServices = CorePorts | WebhookVerifier | RequestLog

/**
 * Runs an effect on the services, within everything the request carries (its span when an operator
 * traces, its log annotations, its id and Idempotency-Key claim). The services are the context the
 * API's handlers are built in (`api-router.ts`), which HttpApi lays over each request's own before
 * its middlewares and handler run, in the one copy of the request's context it makes anyway. So
 * this adds nothing at run time: it tells the types that the services are there, where laying
 * them over each request again cost a read ~3 µs.
 */
export const onServices = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect as Effect.Effect<A, E, Exclude<R, HttpServices>>
