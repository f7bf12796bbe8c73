import { Context, Effect } from "effect"
import type { CorePorts } from "../../core/index.ts"
import type { WebhookVerifier } from "../payments/webhook-verifier.ts"
import type { RequestLog } from "./edge/request-log.ts"

/** The ports and adapters the HTTP service runs on: the core's, the webhook verifier and the request log. */
export type HttpServices = CorePorts | WebhookVerifier | RequestLog

/**
 * Every service, held as one. HttpApi provides the context its handlers were built in to every
 * request, copying it entry by entry; holding the services as one entry there, and running use
 * cases on them in place of the request's context, keeps that copy a few entries long.
 */
export class Services extends Context.Service<Services, Context.Context<HttpServices>>()(
  "roster/http/Services"
) {}

/**
 * Runs `effect` on `services`, within everything the request already carries: its span when an
 * operator traces, its log annotations, its id and Idempotency-Key claim for the audit record. The
 * services stay one map, built once; the request's own few entries are laid over it, where merging
 * would copy every service into a new map for each request.
 */
export const runOn = (services: Context.Context<HttpServices>) => {
  const all = services.mapUnsafe
  // Deep enough for every entry a request carries, so laying them over never copies the services.
  const base = Context.makeUnsafe<never>(all, { maxDepth: 64 })
  const within = (request: Context.Context<never>) => {
    let context = base
    for (const [key, value] of request.mapUnsafe) {
      if (!all.has(key)) context = Context.addUnsafe(context, key, value)
    }
    return context
  }
  return <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.updateContext(effect as Effect.Effect<A, E, never>, within) as Effect.Effect<
      A,
      E,
      Exclude<R, HttpServices>
    >
}

/**
 * Runs an effect on the services the request's handler was built with. An authenticated request
 * runs on them whole (the authentication middleware lays the request over them); the routes
 * without authentication call this.
 */
export const onServices = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, Services | Exclude<R, HttpServices>> =>
  Services.use((services) => runOn(services)(effect))
