import { Context } from "effect"

/** How a login ended, as the metrics count it. */
export type LoginOutcome = "ok" | "failed" | "throttled"

/**
 * What the service counts for its operators (`GET /metrics`). Labels are bounded and name no one:
 * route templates, statuses, outcomes, event types Roster acts on; never an id, e-mail or token.
 */
export interface MetricsRecorder {
  readonly request: (method: string, route: string, status: number, seconds: number) => void
  readonly login: (outcome: LoginOutcome) => void
  readonly webhook: (eventType: string, outcome: string) => void
  readonly storeError: (store: string) => void
  readonly replay: () => void
  /** `count` answers of `POST /authorize`, allowed or not. */
  readonly authorizeChecks: (allowed: boolean, count: number) => void
}

/**
 * The recorder of the running service, when an operator turned metrics on; none by default, so
 * that with metrics off nothing is counted and nothing is paid.
 */
export const Metrics = Context.Reference<MetricsRecorder | undefined>("roster/adapters/Metrics", {
  defaultValue: () => undefined
})
