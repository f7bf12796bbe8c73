export { makePrometheusMetrics } from "./prometheus.ts"
export { type LoginOutcome, Metrics, type MetricsRecorder } from "./recorder.ts"
