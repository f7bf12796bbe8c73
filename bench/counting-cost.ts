import { countAnswer } from "../adapters/http/edge/count-answer.ts"
import { makePrometheusMetrics } from "../adapters/metrics/prometheus.ts"

/**
 * What counting one answer costs when metrics are on (`countAnswer`: its route's labels, its count
 * and its duration in Effect's metrics), in CPU time per answer, in process: a figure wrk's runs,
 * which move by more than it from one run to the next, cannot show.
 */
export const countingCostUs = () => {
  const { recorder } = makePrometheusMetrics()
  const answers = [
    [new Request("http://127.0.0.1/api/v1/team/roles/1"), "/api/v1/team/roles/1", new Response("{}")],
    [
      new Request("http://127.0.0.1/api/v1/team/role/add", { method: "POST" }),
      "/api/v1/team/role/add",
      new Response("{}", { status: 409 })
    ]
  ] as const
  const count = () => {
    for (const [request, path, response] of answers) countAnswer(recorder, request, path, response, 0.001)
  }
  const times = 500_000
  for (let i = 0; i < 20_000; i++) count()
  let best = Number.POSITIVE_INFINITY
  for (let round = 0; round < 5; round++) {
    const started = process.cpuUsage()
    for (let i = 0; i < times; i++) count()
    const spent = process.cpuUsage(started)
    best = Math.min(best, (spent.user + spent.system) / (times * answers.length))
  }
  return best
}
