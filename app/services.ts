import { Layer, Option, Redacted } from "effect"
import { jsonLines, RequestLog } from "../adapters/http/edge/request-log.ts"
import { inMemoryRoster } from "../adapters/memory/index.ts"
import { stripeVerifierLayer } from "../adapters/payments/stripe-verifier.ts"
import { acceptUnsignedLayer, rejectAllLayer } from "../adapters/payments/unsigned-verifier.ts"
import { makeLogWriter } from "./log-writer.ts"
import type { Settings } from "./settings.ts"

export const logWriter = makeLogWriter((chunk) => process.stdout.write(chunk))

export const writeLine = logWriter.line

const webhookVerifier = (settings: Settings) => {
  if (settings.webhookSecrets.length > 0) return stripeVerifierLayer(settings.webhookSecrets)
  return Option.isNone(settings.masterKey) ? acceptUnsignedLayer : rejectAllLayer
}

/** Which store, hasher, verifier and log the service runs with: decided here and nowhere else. */
export const rosterServices = (settings: Settings) =>
  Layer.mergeAll(
    inMemoryRoster({
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
