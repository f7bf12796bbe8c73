import { Effect, Layer, Redacted } from "effect"
import type { RosterOptions } from "../../app/roster-layer.ts"
import { deliverEvents, type OutboundMessage, type SendResult, WebhookSender } from "../../core/index.ts"
import { provideRoster } from "./roster.ts"

/** A message as the recording sender saw it: its secrets in clear, for the test to check. */
export interface Sent extends Omit<OutboundMessage, "secrets"> {
  readonly secrets: ReadonlyArray<string>
  readonly type: string
  readonly data: Record<string, unknown>
}

/**
 * A sender that records what it is handed and answers from `answers` in turn (then
 * `otherwise.answer`, 204 unless set), accepting every URL: the core's rules, without a network.
 */
export const recordingSender = () => {
  const sent: Array<Sent> = []
  const answers: Array<SendResult> = []
  const otherwise: { answer: SendResult } = { answer: { statusCode: 204 } }
  const layer = Layer.succeed(
    WebhookSender,
    WebhookSender.of({
      checkDestination: () => Effect.void,
      send: (message) =>
        Effect.sync(() => {
          const { type, data } = JSON.parse(message.body)
          sent.push({ ...message, secrets: message.secrets.map(Redacted.value), type, data })
          return answers.shift() ?? otherwise.answer
        })
    })
  )
  return { sent, answers, otherwise, layer }
}

/** Fans out and sends until nothing is left to do (at most ten rounds). */
export const roundsUntilIdle = Effect.gen(function* () {
  for (let round = 0; round < 10; round++) {
    const { fannedOut, sent } = yield* deliverEvents()
    if (fannedOut + sent === 0) return
  }
})

/** Runs on the in-memory roster with `sender` sending. */
export const withSender =
  (sender: ReturnType<typeof recordingSender>, options: RosterOptions = {}) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    effect.pipe(Effect.provide(sender.layer), provideRoster(options))
