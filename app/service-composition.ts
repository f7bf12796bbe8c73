import { Layer, Option } from "effect"
import { jsonLines, RequestLog, RequestsStarted } from "../adapters/http/index.ts"
import { Metrics, type MetricsRecorder } from "../adapters/metrics/recorder.ts"
import { webhookVerifierLayer } from "../adapters/payments/webhook-verifier-layer.ts"
import { backgroundWork } from "./background-work.ts"
import { coreServices } from "./core-services.ts"
import { jsonLogger, writeLine } from "./log-lines.ts"
import type { Settings } from "./settings.ts"
import { tracedWhenTracing, tracing } from "./tracing.ts"

// Without a secret nothing can be verified: deliveries are taken as they come in open local mode only.
const webhookVerifier = (settings: Settings) =>
  webhookVerifierLayer(
    settings.webhookSecrets.length > 0
      ? { scheme: settings.webhookScheme, secrets: settings.webhookSecrets }
      : { scheme: Option.isNone(settings.masterKey) ? "unsigned" : "reject" }
  )

const requestCount = () => Layer.sync(RequestsStarted, () => ({ started: 0 }))

/**
 * The service as the settings make it: the core's ports, the payment webhook's verifier, the
 * request log and metrics, and its background work. Which of each is decided here and nowhere else.
 */
export const rosterServices = (settings: Settings, metrics?: MetricsRecorder) =>
  tracedWhenTracing(
    settings,
    Layer.mergeAll(
      metrics === undefined ? Layer.empty : Layer.succeed(Metrics)(metrics),
      tracing(settings),
      // One count of requests, which the edge adds to and the events' sender reads.
      backgroundWork(settings.permissions).pipe(
        Layer.provideMerge(coreServices(settings)),
        Layer.provideMerge(requestCount())
      ),
      webhookVerifier(settings),
      Layer.succeed(RequestLog)(settings.logRequests ? jsonLines(writeLine) : () => {}),
      // What use cases log while serving a request comes out as the same JSON lines, naming its trace.
      jsonLogger
    )
  )
