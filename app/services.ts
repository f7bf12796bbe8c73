import { Layer, Logger, Option, Redacted } from "effect"
import { jsonLines, RequestLog } from "../adapters/http/edge/request-log.ts"
import { MemoryStores } from "../adapters/memory/index.ts"
import { mongoStores } from "../adapters/mongodb/index.ts"
import { standardWebhooksVerifierLayer } from "../adapters/payments/standard-webhooks-verifier.ts"
import { stripeVerifierLayer } from "../adapters/payments/stripe-verifier.ts"
import { acceptUnsignedLayer, rejectAllLayer } from "../adapters/payments/unsigned-verifier.ts"
import { makeLogWriter } from "./log-writer.ts"
import { rosterOn } from "./roster-layer.ts"
import type { Settings } from "./settings.ts"

export const logWriter = makeLogWriter((chunk) => process.stdout.write(chunk))

export const writeLine = logWriter.line

const webhookVerifier = (settings: Settings) => {
  if (settings.webhookSecrets.length > 0) {
    return settings.webhookScheme === "stripe"
      ? stripeVerifierLayer(settings.webhookSecrets)
      : standardWebhooksVerifierLayer(settings.webhookSecrets)
  }
  return Option.isNone(settings.masterKey) ? acceptUnsignedLayer : rejectAllLayer
}

// What the stores log while they start (a missing TTL index) comes out as JSON lines too.
const jsonLogger = Logger.layer([Logger.consoleJson])

const stores = (settings: Settings) =>
  Option.match(settings.mongo, {
    onNone: () => MemoryStores,
    onSome: (mongo) => mongoStores(mongo).pipe(Layer.provide(jsonLogger))
  })

/** Which store, hasher, verifier and log the service runs with: decided here and nowhere else. */
export const rosterServices = (settings: Settings) =>
  Layer.mergeAll(
    rosterOn(stores(settings), {
      plans: settings.plans,
      sessionTtl: settings.sessionTtl,
      ...Option.match(settings.masterKey, {
        onNone: () => ({}),
        onSome: (key) => ({ masterKey: Redacted.value(key) })
      })
    }),
    webhookVerifier(settings),
    Layer.succeed(RequestLog)(settings.logRequests ? jsonLines(writeLine) : () => {})
  )
