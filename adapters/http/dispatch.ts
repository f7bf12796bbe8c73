import { Context } from "effect"
import { AuditLog, IdempotencyStore } from "../../core/index.ts"
import { makeScimHandler, scimPrefix } from "../scim/scim-handler.ts"
import type { openRouter } from "./api-router.ts"
import type { makeDirectReads } from "./direct-reads.ts"
import { isRefusal, type makeGuards, toResponse } from "./edge/guards.ts"
import { type KeyedRoute, makeIdempotency } from "./edge/idempotency.ts"
import { makeMetricsEndpoint } from "./edge/metrics-endpoint.ts"
import type { EdgeOptions } from "./edge/options.ts"
import { makePasswordChecks } from "./edge/password-checks.ts"
import type { Routed } from "./edge/routed.ts"
import { comesWithoutBody } from "./edge/utf8-body.ts"
import type { HttpServices } from "./handed-services.ts"

/** What answers a request the edge checked. */
export type Answer = (request: Request, record: Routed) => Promise<Response>

const scimPaths = `${scimPrefix}/`

/**
 * Where a checked request goes: the metrics, SCIM, a repeated read or call answered directly, or (admitted
 * among the password checks, its Idempotency-Key applied) the router; each with its body read to
 * its end and checked first.
 */
export const dispatcher = async (
  context: Context.Context<HttpServices>,
  options: EdgeOptions,
  route: (record: Routed) => KeyedRoute,
  guard: Awaited<ReturnType<typeof makeGuards>>,
  callerOf: Awaited<ReturnType<typeof openRouter>>["callerOf"],
  direct: Awaited<ReturnType<typeof makeDirectReads>>
): Promise<Answer> => {
  const passwordChecks = await makePasswordChecks(options.passwordChecksAtOnce)
  const idempotency = await makeIdempotency(
    Context.get(context, IdempotencyStore),
    Context.get(context, AuditLog),
    callerOf
  )
  const metrics = options.metrics
  const metricsEndpoint =
    metrics === undefined
      ? undefined
      : await makeMetricsEndpoint({
          render: metrics.render,
          token: metrics.token,
          openLocal: options.openLocal,
          isMasterKey: async (bearer) =>
            (await callerOf({ bearer, organization: undefined }))?.principal._tag === "Master"
        })
  const scim = makeScimHandler(context, options.publicOrigin)
  const serve: Answer = (request, record) =>
    idempotency.applies(request) ? idempotency.serve(request, record, route(record)) : route(record)(request)
  const withBody = (checked: Request, record: Routed, next: Answer): Promise<Response> =>
    comesWithoutBody(checked)
      ? next(checked, record)
      : guard.readBody(checked).then((read) => (isRefusal(read) ? toResponse(read) : next(read, record)))
  return (checked, record) => {
    const path = record.path
    if (metricsEndpoint?.serves(checked, path)) return metricsEndpoint.answer(record.bearer)
    if (path === scimPrefix || path.startsWith(scimPaths)) return withBody(checked, record, scim)
    const read = direct.readOf(checked, path)
    if (read !== undefined) return direct.answer(read, checked, record, route(record))
    const call = direct.callOf(checked, path)
    if (call !== undefined) {
      return withBody(checked, record, (body, routed) => direct.answer(call, body, routed, route(routed)))
    }
    return passwordChecks.admit(checked, () => withBody(checked, record, serve))
  }
}
