import { Context, Effect, Tracer } from "effect"
import { HttpServerRequest } from "effect/http"
import {
  type AuditLog,
  type AuthSettings,
  CurrentRequestId,
  CurrentRequestKey,
  type IdempotencyStore,
  type IdGenerator,
  type LoginThrottleStore,
  type MemberStore,
  type PasswordHasher,
  type PaymentInbox,
  type PaymentProvider,
  type PlanCatalog,
  type RolePermissionStore,
  type RoleStore,
  type SessionStore,
  type SessionTokens,
  type StoreHealth,
  type SubscriptionStore
} from "../../core/index.ts"
import type { WebhookVerifier } from "../payments/webhook-verifier.ts"
import type { RequestLog } from "./edge/request-log.ts"
import { routedOf } from "./edge/routed.ts"

/** The ports and adapters the HTTP service runs on: the core's, the webhook verifier and the request log. */
export type HttpServices =
  | AuditLog
  | AuthSettings
  | IdempotencyStore
  | IdGenerator
  | LoginThrottleStore
  | MemberStore
  | PasswordHasher
  | PaymentInbox
  | PaymentProvider
  | PlanCatalog
  | RolePermissionStore
  | RoleStore
  | SessionStore
  | SessionTokens
  | StoreHealth
  | SubscriptionStore
  | WebhookVerifier
  | RequestLog

/**
 * Every service, held as one. HttpApi provides the context its handlers were built in to every
 * request, copying it entry by entry; holding the services as one entry there, and running use
 * cases on them in place of the request's context, keeps that copy a few entries long.
 */
export class Services extends Context.Service<Services, Context.Context<HttpServices>>()(
  "roster/http/Services"
) {}

/**
 * The context a use case runs in: the services, and from the request its span (when an operator
 * traces) and, for a use case that records what it changed, the request's id and key.
 */
const useCaseContext = (
  services: Context.Context<HttpServices>,
  request: Context.Context<never>,
  recorded: boolean
) => {
  let context: Context.Context<HttpServices> = services
  const span = Context.getOrUndefined(request, Tracer.ParentSpan)
  if (span !== undefined) context = Context.add(context, Tracer.ParentSpan, span)
  if (recorded) {
    const routed = routedOf(Context.getUnsafe(request, HttpServerRequest.HttpServerRequest))
    if (routed !== undefined) context = Context.add(context, CurrentRequestId, routed.requestId)
    if (routed?.requestKey !== undefined) context = Context.add(context, CurrentRequestKey, routed.requestKey)
  }
  return context
}

/** Runs `effect` on `services` in place of the caller's context (see `useCaseContext`). */
export const runOn =
  (services: Context.Context<HttpServices>, options: { readonly recorded?: boolean } = {}) =>
  <A, E, R extends HttpServices>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E> =>
    Effect.updateContext(effect, (request: Context.Context<never>) =>
      useCaseContext(services, request, options.recorded === true)
    ) as Effect.Effect<A, E>

/** Runs a use case on the services the request's handler was built with. */
export const onServices = <A, E, R extends HttpServices>(
  useCase: Effect.Effect<A, E, R>,
  options: { readonly recorded?: boolean } = {}
): Effect.Effect<A, E, Services> => Services.use((services) => runOn(services, options)(useCase))
