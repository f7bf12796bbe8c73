import { createHash, timingSafeEqual } from "node:crypto"
import { Option, Redacted } from "effect"
import * as Problem from "../problems.ts"
import { render, toResponse } from "./guards.ts"
import type { Bearer } from "./routed.ts"

export const metricsPath = "/metrics"

const digest = (text: string) => createHash("sha256").update(text).digest()

export interface MetricsEndpointOptions {
  /** The scrape, in the Prometheus text format. */
  readonly render: () => string
  /** `ROSTER_METRICS_TOKEN`: a bearer token that reads the metrics and nothing else. */
  readonly token: Option.Option<Redacted.Redacted<string>>
  /** Open local mode: anyone may read them, as anyone may do anything. */
  readonly openLocal: boolean
  /** Whether the bearer is the master key. */
  readonly isMasterKey: (bearer: Bearer) => Promise<boolean>
}

/**
 * `GET /metrics`, answered at the edge: readable with the master key or the metrics token, by
 * anyone in open local mode; 401 otherwise. Not an API operation: it is for Prometheus, not for
 * the API's clients, and is left out of the OpenAPI document.
 */
export const makeMetricsEndpoint = async (options: MetricsEndpointOptions) => {
  const refused = await render(
    new Problem.Unauthorized({ detail: "Metrics are read with the master key or the metrics token" })
  )
  const tokenDigest = Option.map(options.token, (token) => digest(Redacted.value(token)))
  const isToken = (bearer: Bearer) =>
    bearer !== "malformed" &&
    Option.isSome(bearer) &&
    Option.isSome(tokenDigest) &&
    timingSafeEqual(digest(Redacted.value(bearer.value)), tokenDigest.value)
  const allowed = async (bearer: Bearer) =>
    options.openLocal || isToken(bearer) || (await options.isMasterKey(bearer))
  return {
    serves: (request: Request, path: string) => request.method === "GET" && path === metricsPath,
    answer: async (bearer: Bearer) =>
      (await allowed(bearer))
        ? new Response(options.render(), {
            headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" }
          })
        : toResponse(refused)
  }
}
