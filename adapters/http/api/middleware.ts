import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import type { AuditTarget, PermissionKey, Principal } from "../../../core/index.ts"
import type { HttpServices } from "../handed-services.ts"
import * as Problem from "../problems.ts"

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()(
  "roster/http/CurrentPrincipal"
) {}

/**
 * Marks an endpoint that checks a caller's password (hashing it, and counting the attempt against
 * throttling): the edge lets only a few of them run at once (edge/password-checks.ts).
 */
export const ChecksPassword = Context.Reference<boolean>("roster/http/ChecksPassword", {
  defaultValue: () => false
})

/**
 * The permission an endpoint's use case requires, declared beside the endpoint: the edge tells by
 * it, before replaying a stored answer (Idempotency-Key), that the caller still holds it, and the
 * console offers only what the caller may do. The use case decides; a test holds the two together.
 */
export const RequiresPermission = Context.Reference<PermissionKey | undefined>(
  "roster/http/RequiresPermission",
  { defaultValue: () => undefined }
)

/**
 * Marks what a session waiting for its account's second factor may still do (its organisation
 * requires one): enrol TOTP, read who it is, sign out. Every other endpoint answers it 403
 * `mfa_required`.
 */
export const OpenWithoutMfa = Context.Reference<boolean>("roster/http/OpenWithoutMfa", {
  defaultValue: () => false
})

/**
 * Marks an endpoint that answers what is true now and changes nothing (an access token): an
 * Idempotency-Key is ignored there, since a replayed answer would be stale, or keep a live token.
 */
export const IgnoresIdempotencyKey = Context.Reference<boolean>("roster/http/IgnoresIdempotencyKey", {
  defaultValue: () => false
})

/**
 * The top-level fields of an endpoint's success that hold a secret shown once (a token, a key): an
 * answer kept for Idempotency-Key replays is kept without them, and replayed with `null` in their
 * place, so no secret is ever stored in clear for a replay.
 */
export const ShownOnce = Context.Reference<ReadonlyArray<string>>("roster/http/ShownOnce", {
  defaultValue: () => []
})

/**
 * The audit target type an endpoint reads the current state of (a GET by the target's id, where
 * the target has one): what an idempotent retry answers once its first attempt made the change
 * (`edge/completed.ts`).
 */
export const ReadsTarget = Context.Reference<AuditTarget["type"] | undefined>("roster/http/ReadsTarget", {
  defaultValue: () => undefined
})

/** How callers present their credentials: the master key or a session token, as a bearer token. */
export const bearer = HttpApiSecurity.bearer

/**
 * Resolves the bearer token into the calling principal. A plain middleware rather than HttpApi's
 * security middleware, whose wrapper (a generator, a result and an error wrapper per request) cost
 * ~2 µs of every authenticated request, a tenth of a read; the document still declares the scheme
 * on every operation that uses this middleware (bearer-security.ts).
 */
export class Authentication extends HttpApiMiddleware.Service<
  Authentication,
  { provides: CurrentPrincipal | HttpServices }
>()("roster/http/Authentication", {
  error: [
    Problem.ValidationFailed,
    Problem.Unauthorized,
    Problem.Forbidden,
    Problem.MfaRequired,
    Problem.NotFound,
    Problem.Unavailable
  ]
}) {}

/** Whether an endpoint with these middlewares (as `HttpApi.reflect` lists them) runs behind Authentication. */
export const behindAuthentication = (middleware: ReadonlySet<unknown>) => middleware.has(Authentication)

/** Renders a request that fails decoding as a 400 problem listing every issue with its path. */
export class RequestProblems extends HttpApiMiddleware.Service<RequestProblems>()(
  "roster/http/RequestProblems",
  {
    error: [
      Problem.ValidationFailed,
      Problem.PayloadTooLarge,
      Problem.Internal,
      Problem.Unavailable,
      Problem.OutcomeUnknown,
      // A sealed secret no configured key opens: any endpoint reading one may meet it.
      Problem.SecretUnreadable
    ]
  }
) {}
