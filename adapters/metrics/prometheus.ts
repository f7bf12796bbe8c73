import { Context, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import type { LoginOutcome, MetricsRecorder } from "./recorder.ts"

/** Prometheus' default buckets, in seconds: from a cached read to a slow password hash. */
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`

/**
 * One metric per label set, made once with its labels (so that Effect computes its series key once,
 * not on every update): the label sets are few and bounded. `key` names the set.
 */
const labelled = <M>(make: (labels: Record<string, string>) => M) => {
  const made = new Map<string, M>()
  return (key: string, labels: () => Record<string, string>) => {
    let metric = made.get(key)
    if (metric === undefined) {
      metric = make(labels())
      made.set(key, metric)
    }
    return metric
  }
}

/** The process' own figures, read when scraped. */
const processMetrics = () => {
  const resident = Metric.gauge("process_resident_memory_bytes", {
    description: "Resident memory size in bytes"
  })
  const heap = Metric.gauge("process_heap_bytes", { description: "JavaScript heap in use, in bytes" })
  const started = Metric.gauge("process_start_time_seconds", {
    description: "Start time of the process since the Unix epoch, in seconds"
  })
  const cpu = Metric.counter("process_cpu_seconds_total", {
    description: "User and system CPU time spent, in seconds",
    incremental: true
  })
  const startedAt = Date.now() / 1000 - process.uptime()
  let cpuSeen = 0
  return (context: Context.Context<never>) => {
    const memory = process.memoryUsage()
    resident.updateUnsafe(memory.rss, context)
    heap.updateUnsafe(memory.heapUsed, context)
    started.updateUnsafe(Math.round(startedAt), context)
    const usage = process.cpuUsage()
    const cpuNow = (usage.user + usage.system) / 1e6
    cpu.updateUnsafe(cpuNow - cpuSeen, context)
    cpuSeen = cpuNow
  }
}

/**
 * Metrics kept in a registry of their own (so that two services in one process never mix counts)
 * with Effect's metrics, rendered in the Prometheus text format by Effect's own formatter.
 */
export const makePrometheusMetrics = () => {
  const context = Context.make(Metric.MetricRegistry, new Map())
  const requests = labelled(({ method = "", route = "", status = "", status_class = "" }) => ({
    count: Metric.counter("roster_http_requests_total", {
      description: "HTTP requests answered",
      incremental: true,
      attributes: { method, route, status }
    }),
    duration: Metric.histogram("roster_http_request_duration_seconds", {
      description: "Time from a request's arrival to its answer, in seconds",
      boundaries: durationBuckets,
      attributes: { method, route, status_class }
    })
  }))
  const counter = (name: string, description: string) =>
    labelled((attributes) => Metric.counter(name, { description, incremental: true, attributes }))
  const logins = counter("roster_logins_total", "Logins, by outcome")
  const webhooks = counter("roster_webhook_events_total", "Provider deliveries, by event type and outcome")
  const storeErrors = counter(
    "roster_store_errors_total",
    "Store operations that failed (the store did not answer)"
  )
  const replays = Metric.counter("roster_idempotent_replays_total", {
    description: "Answers replayed for a repeated Idempotency-Key",
    incremental: true
  })
  const checks = counter("roster_authorize_checks_total", "Checks POST /authorize answered, by answer")
  const readProcess = processMetrics()
  const recorder: MetricsRecorder = {
    request: (method, route, status, seconds) => {
      const series = requests(`${method} ${route} ${status}`, () => ({
        method,
        route,
        status: String(status),
        status_class: statusClass(status)
      }))
      series.count.updateUnsafe(1, context)
      series.duration.updateUnsafe(seconds, context)
    },
    login: (outcome: LoginOutcome) => logins(outcome, () => ({ outcome })).updateUnsafe(1, context),
    webhook: (type, outcome) =>
      webhooks(`${type} ${outcome}`, () => ({ type, outcome })).updateUnsafe(1, context),
    storeError: (store) => storeErrors(store, () => ({ store })).updateUnsafe(1, context),
    replay: () => replays.updateUnsafe(1, context),
    authorizeChecks: (allowed, count) => {
      if (count > 0)
        checks(String(allowed), () => ({ allowed: String(allowed) })).updateUnsafe(count, context)
    }
  }
  return {
    recorder,
    /** The scrape: every series, the process' figures read now. */
    render: () => {
      readProcess(context)
      return PrometheusMetrics.formatUnsafe(context)
    }
  }
}
