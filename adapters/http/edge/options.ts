import type { Option, Redacted } from "effect"
import type { MetricsRecorder } from "../../metrics/recorder.ts"

/** How the edge serves: set once at start, from the configuration. */
export interface EdgeOptions {
  /** Request bodies above this many bytes are refused with 413 before they are read. */
  readonly maxBodyBytes: number
  /**
   * Open local mode: no credentials needed, so only requests a local client addressed to a
   * loopback host are served; a web page elsewhere (cross-site, DNS rebinding) is refused.
   */
  readonly openLocal: boolean
  /**
   * Origins whose pages may call the API from a browser (CORS); none or absent: CORS is off. In
   * open local mode only loopback origins get past the check above, so only those are useful.
   */
  readonly corsOrigins?: ReadonlyArray<string>
  /**
   * The origin browsers see the service at when a proxy stands in front (`ROSTER_PUBLIC_URL`): its
   * pages' requests are the service's own, not cross-site.
   */
  readonly publicOrigin?: string
  /** `ROSTER_PUBLIC_URL` whole, its path kept, without a trailing slash: access tokens' issuer. */
  readonly publicUrl?: string
  /**
   * Requests whose headers take more bytes than this are refused with 431 (default 16 KiB). The
   * server's own parser must allow more, so that it is this refusal, with its problem body, that
   * answers them.
   */
  readonly maxHeaderBytes?: number
  /** How many password checks may run at once (see password-checks.ts); unbounded when absent. */
  readonly passwordChecksAtOnce?: number
  /** Where the built console is (`npm run build`); served at `/console/` when it holds one. */
  readonly consoleDirectory?: string
  /** Metrics, when an operator turned them on (`ROSTER_METRICS=on`): counted, and served at `/metrics`. */
  readonly metrics?: MetricsOptions
}

export interface MetricsOptions {
  readonly recorder: MetricsRecorder
  /** The scrape, in the Prometheus text format. */
  readonly render: () => string
  /** `ROSTER_METRICS_TOKEN`: a bearer token that reads the metrics and nothing else. */
  readonly token: Option.Option<Redacted.Redacted<string>>
}
