import type { LoginOutcome, MetricsRecorder } from "../../metrics/recorder.ts"
import { docsPath } from "../api/roster-api.ts"
import { metricsPath } from "./metrics-endpoint.ts"
import { routeLabelsOf } from "./route-table.ts"

const servedAtEdge = [docsPath, metricsPath]

/** A request's method and route as metrics and spans name them (see `routeLabelsOf`). */
export const requestLabelsOf = (method: string, path: string) => routeLabelsOf(method, path, servedAtEdge)

const loginPath = "/api/v1/auth/login"

/** How a login ended, by its answer; a refused request (400, 403 cross-site, 503) was no attempt. */
const loginOutcomes: Readonly<Record<number, LoginOutcome>> = { 200: "ok", 401: "failed", 429: "throttled" }

/** Counts one answer: the request by route and status, and what it says of a login or a replay. */
export const countAnswer = (
  metrics: MetricsRecorder,
  request: Request,
  path: string,
  response: Response,
  seconds: number
) => {
  const { method, route } = requestLabelsOf(request.method, path)
  metrics.request(method, route, response.status, seconds)
  if (route === loginPath && method === "POST") {
    const outcome = loginOutcomes[response.status]
    if (outcome !== undefined) metrics.login(outcome)
  }
  if (response.headers.get("idempotent-replayed") === "true") metrics.replay()
}
